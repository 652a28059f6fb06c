import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { queryOf } from "~/lib/http/bodies.server";
import { cursorPageHeaders } from "~/lib/http/paging.server";
import { cursorParam } from "~/lib/http/cursor.server";
import { libraryJson, libraryQuerySchema, listLibrary } from "~/models/media/library-files.server";
import { libraryCursorKey } from "~/models/media/library-keyset.server";
import type { Route } from "./+types/library";

/**
 * GET /api/library?kind=&q=&sort=&page=&per_page= -> {files: [...], total, page, per_page}: the
 * person's files of every kind (or of `kind`), `q` matching the name or the prompt, `sort` one of
 * -date (newest first, the default), date, -size (largest first), size; 24 a page (per_page up to
 * 100). A bad kind, sort or page -> 422 {detail}. While files follow, `Link: <…>; rel="next"` names the
 * next page: the same query with the next page number and a ?cursor= (the keys of this page's last
 * file: the next page starts after it); a cursor that is not one of this sort's -> 400 {detail}.
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const query = parseInput(libraryQuerySchema, queryOf(request));
  const cursor = cursorParam(request);
  const result = await listLibrary(user.id, {
    after: cursor === undefined ? undefined : libraryCursorKey(query.sort, cursor),
    kind: query.kind,
    q: query.q,
    sort: query.sort,
    page: query.page,
    perPage: query.per_page,
  });
  return Response.json(
    {
      files: result.files.map(libraryJson),
      total: result.total,
      page: result.page,
      per_page: result.perPage,
      sort: query.sort,
    },
    { headers: { "Cache-Control": "no-store", ...nextLink(request, result.page, result.next) } },
  );
});

/** The Link header of the next page, when one follows (only the Link: the body says the total). */
function nextLink(request: Request, page: number, next: string | null): Record<string, string> {
  const { Link } = cursorPageHeaders(request, 0, next, { page: String(page + 1) });
  return Link ? { Link } : {};
}

export const action = refuseMethod("GET, HEAD");
