import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { deleteFromLibrary } from "~/services/media/voice-video-files.server";
import type { Route } from "./+types/voice.file";

export const loader = refuseMethod("DELETE");

/** DELETE /api/voice/file/{name} -> {ok: true, filename}; unknown or another user's -> 404. */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["DELETE"]);
  const user = await requireApiUser(context, request);
  return Response.json(await deleteFromLibrary(user.id, "voice", params.name));
});
