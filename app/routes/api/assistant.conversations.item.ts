import { requireApiUser } from "~/auth/auth.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import {
  conversationNotFound,
  conversationRenameSchema,
  deleteConversation,
  parseConversationInput,
  renameConversation,
  requireConversation,
} from "~/models/assistant/assistant-conversation.server";
import type { Route } from "./+types/assistant.conversations.item";

/** GET /api/assistant/conversations/{id} -> the conversation with its messages; another person's -> 404. */
export const loader = apiAction(async ({ request, context, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  return Response.json(await requireConversation(user.id, params.id), { headers: { "Cache-Control": "no-store" } });
});

/** PATCH {title} -> the renamed conversation (400 for an empty or too long title); DELETE -> 204. */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["PATCH", "DELETE"], "GET, PATCH, DELETE");
  const user = await requireApiUser(context, request);
  if (request.method === "DELETE") {
    if (!(await deleteConversation(user.id, params.id))) throw conversationNotFound();
    return new Response(null, { status: 204 });
  }
  const { title } = parseConversationInput(conversationRenameSchema, await readJsonBody(request));
  return Response.json(await renameConversation(user.id, params.id, title));
});
