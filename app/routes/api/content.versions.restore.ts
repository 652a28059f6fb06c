import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { restoreVersion } from "~/models/content/content-version.server";
import type { Route } from "./+types/content.versions.restore";

export const loader = refuseMethod("POST");

/**
 * POST /api/content/{id}/versions/{version_id}/restore -> 200 with the saved item (as GET
 * /api/content/{id}); its updated_at moves on, so an editor holding the older one gets the 409
 * conflict. Another person's or another piece's version -> 404; past the storage quota -> 413.
 */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  return Response.json(await restoreVersion(user.id, params.id, params.versionId));
});
