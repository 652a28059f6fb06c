import { requireApiUser } from "~/auth/auth.server";
import { apiAction, keptBytesResponse, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { queryOf, readJsonBody } from "~/lib/http/bodies.server";
import { cursorPageHeaders, pageOf } from "~/lib/http/paging.server";
import { cursorParam } from "~/lib/http/cursor.server";
import { DomainError } from "~/lib/domain-error";
import { contentInputSchema } from "~/models/content/content-input.server";
import { createContent } from "~/models/content/content.server";
import { contentListAnswer, contentListQuerySchema } from "~/models/content/content-list.server";
import { contentCursorKey } from "~/models/content/content-keyset.server";
import type { Route } from "./+types/content";

/**
 * GET /api/content -> a bare array of {id, title, body, pinned, updated_at}, pinned first, then most
 * recently updated first, a page at a time: ?limit= (100 unless asked, at most 500) and ?offset=
 * (app/lib/http/paging.server.ts); a page also ends before it passes CONTENT_ANSWER_MAX_BYTES (4 MiB).
 * X-Total-Count says how many there are, and `Link: <…>; rel="next"` names the next page while one follows,
 * by a ?cursor= (the keys of this page's last item: the next page starts after it) in place of ?offset=.
 * ?q= keeps only the items whose title or body has every word (each also as a prefix: "robo" finds
 * "robots"); blank q is the plain list, a q without letters or digits matches nothing.
 * Bearer clients and browsers (the session cookie) take this same loader; a list unchanged since it
 * was last read is answered from the bytes kept by contentListAnswer (Server-Timing says which).
 */
/** GET /api/content's own headers; `kept` says in Server-Timing whether the list came from memory. */
function contentListHeaders(paging: Record<string, string>, kept: boolean): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
    ...paging,
    "Server-Timing": kept ? 'list;desc="kept"' : 'list;desc="read"',
  };
}

export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const page = pageOf(request);
  const cursor = cursorParam(request);
  if (cursor !== undefined && page.offset > 0) throw new DomainError(400, "give cursor or offset, not both");
  const after = cursor === undefined ? undefined : contentCursorKey(cursor);
  const { q } = parseInput(contentListQuerySchema, queryOf(request));
  const { json, total, next, kept } = await contentListAnswer(user.id, { ...page, q, after });
  return keptBytesResponse(json, { headers: contentListHeaders(cursorPageHeaders(request, total, next), kept) });
});

/** POST /api/content {title, body?} -> 201 with the item. */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"], "GET, POST");
  const user = await requireApiUser(context, request);
  const input = parseInput(contentInputSchema, await readJsonBody(request));
  const item = await createContent(user.id, input);
  return Response.json(item, { status: 201, headers: { Location: `/api/content/${encodeURIComponent(item.id)}` } });
});
