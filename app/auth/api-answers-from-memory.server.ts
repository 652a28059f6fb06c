import type { DoorRequest, MemoryAnswer } from "~/lib/http.server";
import { SECURITY_HEADERS } from "~/lib/security.server";
import { contentListQuerySchema, keptContentList } from "~/models/content-list.server";
import { accessTokenHolder } from "~/models/token.server";
import { bearerTokenOf } from "./auth.server";

/**
 * GET /api/content's own headers (the route's loader sends the same); `kept` says in Server-Timing
 * whether the list came from memory.
 */
export function contentListHeaders(total: number, kept: boolean): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
    "X-Total-Count": String(total),
    "Server-Timing": kept ? 'list;desc="kept"' : 'list;desc="read"',
  };
}

/**
 * GET /api/content for an access token, answered by the front door from the list kept in memory
 * when the person's items have not changed since it was read (issue 13; docs/decisions/0026).
 * React Router's request, middleware and loader cost three times the rest of such an answer, and
 * a list is read far more often than it changes.
 *
 * It answers exactly what the route would: the same bytes, the route's headers and the security
 * middleware's. Anything it is not sure of is left to React Router (null): no bearer token or a
 * cookie besides it (the session middleware may have to refresh a cookie), a token that is not
 * live (the route says 401), a query the route would refuse (422), a list not kept at this version.
 * The token's query reads the person's content version in the same row as the user, so the answer
 * is never older than the request.
 */
export async function contentListFromMemory(request: DoorRequest): Promise<MemoryAnswer | null> {
  const { authorization, cookie } = request.headers;
  if (typeof authorization !== "string" || cookie !== undefined) return null;
  const token = bearerTokenOf(authorization);
  if (!token) return null;
  const start = request.url.indexOf("?");
  const query = contentListQuerySchema.safeParse(start === -1 ? {} : Object.fromEntries(new URLSearchParams(request.url.slice(start))));
  if (!query.success) return null;
  const holder = await accessTokenHolder(token);
  if (!holder) return null;
  const kept = keptContentList(holder.user.id, holder.contentVersion, query.data);
  if (!kept) return null;
  return {
    status: 200,
    headers: { ...SECURITY_HEADERS, ...contentListHeaders(kept.total, true) },
    body: kept.json,
    encoded: kept.encoded,
  };
}
