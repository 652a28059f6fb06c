import { assistantMessageSchema } from "~/ai/inputs.server";
import { askAssistant } from "~/services/assistant.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import type { Route } from "./+types/assistant.message";

/**
 * POST /api/assistant/message {message} -> {reply, provider}. Blank -> 422. A provider failure ->
 * 502/504 {"detail": "Something went wrong."}. provider "offline-assistant" marks the offline answer.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const { message } = parseInput(assistantMessageSchema, await readJsonBody(request));
  const answer = await askAssistant(user.id, message, request.signal);
  return Response.json(
    { reply: answer.reply, provider: answer.provider },
    { headers: { "Cache-Control": "no-store" } },
  );
});

export const loader = refuseMethod("POST");
