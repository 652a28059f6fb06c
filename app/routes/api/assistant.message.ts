import { assistantMessageSchema } from "~/ai/inputs.server";
import { requestedLanguage, askAssistant } from "~/services/assistant/assistant.server";
import { conversationRefSchema, parseConversationInput } from "~/models/assistant/assistant-conversation.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import type { Route } from "./+types/assistant.message";

/**
 * POST /api/assistant/message {message, conversation_id?, language?} -> {reply, provider}. Blank -> 422. With
 * conversation_id (the person's; else 404, not text 400) the question and reply are appended to it. A provider failure ->
 * 502/504 {"detail": "Something went wrong."}. provider "offline-assistant" marks the offline answer.
 * language (a screen language's tag, e.g. "de"; the assistant screen sends its own): the offline
 * assistant answers in it and a model is asked to; none, or a tag the studio does not speak: English.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const body = await readJsonBody(request);
  const { message } = parseInput(assistantMessageSchema, body);
  const { conversation_id } = parseConversationInput(conversationRefSchema, body);
  const answer = await askAssistant(user.id, message, request.signal, conversation_id, requestedLanguage(body));
  return Response.json(
    { reply: answer.reply, provider: answer.provider },
    { headers: { "Cache-Control": "no-store" } },
  );
});

export const loader = refuseMethod("POST");
