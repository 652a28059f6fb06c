import { requireApiUser } from "~/auth/auth.server";
import { apiAction, keptBytesResponse, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/validation.server";
import { queryOf, readJsonBody } from "~/lib/http/bodies.server";
import { contentInputSchema, createContent } from "~/models/content.server";
import { contentListAnswer, contentListQuerySchema } from "~/models/content-list.server";
import type { Route } from "./+types/content";

/**
 * GET /api/content -> a bare array of {id, title, body, pinned, updated_at}, pinned first, then most
 * recently updated first. Optional ?limit= (1-1000) and ?offset= page through it; X-Total-Count says how many.
 * ?q= keeps only the items whose title or body has every word (each also as a prefix: "robo" finds
 * "robots"); blank q is the plain list, a q without letters or digits matches nothing.
 * Bearer clients and browsers (the session cookie) take this same loader; a list unchanged since it
 * was last read is answered from the bytes kept by contentListAnswer (Server-Timing says which).
 */
/** GET /api/content's own headers; `kept` says in Server-Timing whether the list came from memory. */
function contentListHeaders(total: number, kept: boolean): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
    "X-Total-Count": String(total),
    "Server-Timing": kept ? 'list;desc="kept"' : 'list;desc="read"',
  };
}

export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const { limit, offset, q } = parseInput(contentListQuerySchema, queryOf(request));
  const { json, total, kept } = await contentListAnswer(user.id, { limit, offset, q });
  return keptBytesResponse(json, { headers: contentListHeaders(total, kept) });
});

/** POST /api/content {title, body?} -> 201 with the item. */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"], "GET, POST");
  const user = await requireApiUser(context, request);
  const input = parseInput(contentInputSchema, await readJsonBody(request));
  const item = await createContent(user.id, input);
  return Response.json(item, { status: 201, headers: { Location: `/api/content/${encodeURIComponent(item.id)}` } });
});
