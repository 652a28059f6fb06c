import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { pageHeaders, pageOf } from "~/lib/http/paging.server";
import { listVersions } from "~/models/content/content-version.server";
import type { Route } from "./+types/content.versions";

/**
 * GET /api/content/{id}/versions -> a bare array of {id, content_id, title, reason, created_at, bytes,
 * size_change}, newest first, without bodies, paged like the content list (?limit=, ?offset=,
 * X-Total-Count, Link rel="next"). Another person's piece -> 404.
 */
export const loader = apiAction(async ({ request, context, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const page = pageOf(request);
  const { items, total } = await listVersions(user.id, params.id, page);
  return Response.json(items, {
    headers: { "Cache-Control": "no-store", ...pageHeaders(request, page, items.length, total) },
  });
});

export const action = refuseMethod("GET");
