import { currentUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { feedbackSchema, saveFeedback } from "~/models/feedback.server";
import type { Route } from "./+types/feedback";

/** POST /api/feedback {name, email, message}: no sign-in needed; 200 when stored, 422 when invalid. */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const input = parseInput(feedbackSchema, await readJsonBody(request));
  const saved = await saveFeedback(input, currentUser(context)?.id ?? null);
  return Response.json({ ok: true, id: saved.id, message: "Feedback received" });
});

export const loader = refuseMethod("POST");
