import { assistantMessageSchema } from "~/ai/inputs.server";
import { requestedLanguage, streamAssistant } from "~/services/assistant/assistant.server";
import { conversationRefSchema, parseConversationInput } from "~/models/assistant/assistant-conversation.server";
import { requireApiUser } from "~/auth/auth.server";
import { eventStreamResponse } from "~/lib/http/event-stream.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import type { Route } from "./+types/assistant.stream";

/**
 * POST /api/assistant/stream {message, conversation_id?, language?} -> text/event-stream: `data: {"delta": "..."}` per piece of
 * the reply as the provider makes it, then `data: [DONE]`. The provider's id is in the
 * X-Assistant-Provider header. Bad input (422), no session (401) and a provider failure before the
 * first piece (502/504) answer JSON {"detail"} like /api/assistant/message; a failure midway is the
 * event `data: {"error": "Something went wrong."}`, after which the stream ends without [DONE].
 * language: as for /api/assistant/message (the reply in the screen's language; none: English).
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const body = await readJsonBody(request);
  const { message } = parseInput(assistantMessageSchema, body);
  const { conversation_id } = parseConversationInput(conversationRefSchema, body);
  const reply = await streamAssistant(user.id, message, request.signal, conversation_id, requestedLanguage(body));
  return eventStreamResponse(reply.pieces, { "X-Assistant-Provider": reply.provider });
});

export const loader = refuseMethod("POST");
