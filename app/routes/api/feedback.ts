import { currentUser } from "~/auth/auth.server";
import { DomainError } from "~/lib/domain-error";
import { clientAddress } from "~/lib/http/client-address.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { feedbackSchema, feedbackThrottledMessage, sendFeedback } from "~/models/operators/feedback.server";
import type { Route } from "./+types/feedback";

/**
 * POST /api/feedback {name, email, message}: no sign-in needed; 200 when stored, 422 when invalid,
 * 429 with Retry-After when the client address has sent FEEDBACK_MAX_PER_ADDRESS in the last hour.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const input = parseInput(feedbackSchema, await readJsonBody(request));
  const sent = await sendFeedback(input, currentUser(context)?.id ?? null, clientAddress(context));
  if (!sent.ok) {
    throw new DomainError(429, feedbackThrottledMessage(sent.retryAfterSeconds), {
      headers: { "Retry-After": String(sent.retryAfterSeconds) },
    });
  }
  return Response.json({ ok: true, id: sent.feedback.id, message: "Feedback received" });
});

export const loader = refuseMethod("POST");
