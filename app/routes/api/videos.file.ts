import { requireApiUser } from "~/auth/auth.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { fileResponse } from "~/lib/http/file-response.server";
import { fileStore } from "~/lib/storage/storage.server";
import { servedFile } from "~/models/media/media.server";
import { deleteFromLibrary, libraryFile } from "~/services/media/voice-video-files.server";
import type { Route } from "./+types/videos.file";

/** GET/HEAD /api/videos/{name}: the video's bytes (byte ranges: 206, 416), to its owner only. */
export const loader = apiAction(async ({ request, context, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  return fileResponse(request, fileStore, servedFile(await libraryFile(user.id, "video", params.name)));
});

/** DELETE /api/videos/{name} -> {ok: true, filename}; unknown or another user's -> 404. */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["DELETE"], "GET, HEAD, DELETE");
  const user = await requireApiUser(context, request);
  return Response.json(await deleteFromLibrary(user.id, "video", params.name));
});
