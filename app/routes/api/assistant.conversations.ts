import { requireApiUser } from "~/auth/auth.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { pageHeaders, pageOf } from "~/lib/http/paging.server";
import {
  conversationCreateSchema,
  createConversation,
  listConversations,
  parseConversationInput,
} from "~/models/assistant/assistant-conversation.server";
import type { Route } from "./+types/assistant.conversations";

/**
 * GET /api/assistant/conversations -> a bare array of the person's {id, title, created_at, updated_at},
 * most recently updated first, paged like GET /api/content (?limit=&offset=, X-Total-Count, Link next).
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const page = pageOf(request);
  const { conversations, total } = await listConversations(user.id, page);
  return Response.json(conversations, {
    headers: { "Cache-Control": "no-store", ...pageHeaders(request, page, conversations.length, total) },
  });
});

/** POST /api/assistant/conversations {title?} -> 201 with the conversation (messages: []); a bad title -> 400. */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"], "GET, POST");
  const user = await requireApiUser(context, request);
  const { title } = parseConversationInput(conversationCreateSchema, await readJsonBody(request));
  const conversation = await createConversation(user.id, title);
  return Response.json(conversation, {
    status: 201,
    headers: { Location: `/api/assistant/conversations/${encodeURIComponent(conversation.id)}` },
  });
});
