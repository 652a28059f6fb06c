import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/validation.server";
import { queryOf } from "~/lib/http/bodies.server";
import { libraryJson, libraryQuerySchema, listLibrary } from "~/models/library-files.server";
import type { Route } from "./+types/library";

/**
 * GET /api/library?kind=&q=&sort=&page=&per_page= -> {files: [...], total, page, per_page}: the
 * person's files of every kind (or of `kind`), `q` matching the name or the prompt, `sort` one of
 * -date (newest first, the default), date, -size (largest first), size; 24 a page (per_page up to
 * 100). A bad kind, sort or page -> 422 {detail}.
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const query = parseInput(libraryQuerySchema, queryOf(request));
  const result = await listLibrary(user.id, {
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
    { headers: { "Cache-Control": "no-store" } },
  );
});

export const action = refuseMethod("GET, HEAD");
