import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { renameInLibrary } from "~/services/media/voice-video-files.server";
import type { Route } from "./+types/videos.rename";

export const loader = refuseMethod("PUT");

/**
 * PUT /api/videos/rename {old_name, new_name} -> {filename, old_name}. The new name is trimmed and
 * gets .mov when missing; blank or unsafe -> 422; taken -> 409; unknown or another user's -> 404.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["PUT"]);
  const user = await requireApiUser(context, request);
  return Response.json(await renameInLibrary(user.id, "video", await readJsonBody(request)));
});
