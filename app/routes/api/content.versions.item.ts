import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { getVersion } from "~/models/content/content-version.server";
import type { Route } from "./+types/content.versions.item";

/** GET /api/content/{id}/versions/{version_id} -> the version with its body; another person's or another piece's -> 404. */
export const loader = apiAction(async ({ request, context, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  return Response.json(await getVersion(user.id, params.id, params.versionId), {
    headers: { "Cache-Control": "no-store" },
  });
});

export const action = refuseMethod("GET");
