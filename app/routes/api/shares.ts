import { PERSONAL_TOKEN_CANNOT_MANAGE_SHARES, requireSignedInCaller } from "~/auth/auth.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { cursorParam } from "~/lib/http/cursor.server";
import { cursorPageHeaders, pageOf } from "~/lib/http/paging.server";
import { publicOrigin } from "~/lib/http/public-origin.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { DomainError } from "~/lib/domain-error";
import { createShare } from "~/models/sharing/share.server";
import { listSharesPage, shareCursorKey } from "~/models/sharing/share-keyset.server";
import type { Route } from "./+types/shares";

/**
 * GET /api/shares -> {shares: [ShareJson]}: the person's links, newest first (docs/api.md#share-links), a
 * page at a time: ?limit= (100 unless asked, at most 500) and ?cursor= from the previous page's
 * `Link: <…>; rel="next"`; X-Total-Count says how many there are. No ?offset= (400): the list pages by
 * cursor only. A signed-in session only: a personal API token is 403 (docs/decisions/0090).
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const { user } = await requireSignedInCaller(context, request, PERSONAL_TOKEN_CANNOT_MANAGE_SHARES);
  if (new URL(request.url).searchParams.has("offset"))
    throw new DomainError(400, "GET /api/shares pages by cursor: give cursor, not offset");
  const { limit } = pageOf(request);
  const cursor = cursorParam(request);
  const after = cursor === undefined ? undefined : shareCursorKey(cursor);
  const { shares, total, next } = await listSharesPage(user.id, publicOrigin(request), { limit, after });
  return Response.json({ shares }, { headers: cursorPageHeaders(request, total, next) });
});

/**
 * POST /api/shares {kind, id, expires_in_hours?, max_views?} -> 201 ShareJson. Bad JSON, a bad kind or a
 * number out of range 400; another person's (or no) target 404; SHARING=off 403; a personal API token
 * 403; SHARES_MAX_PER_PERSON live links already 409.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"], "GET, POST");
  const { user } = await requireSignedInCaller(context, request, PERSONAL_TOKEN_CANNOT_MANAGE_SHARES);
  const share = await createShare(user.id, await readJsonBody(request), publicOrigin(request));
  return Response.json(share, { status: 201 });
});
