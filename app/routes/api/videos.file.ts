import { requireApiUser } from "~/auth/auth.server";
import { apiError } from "~/lib/http.server";
import { fileResponse } from "~/lib/file-response.server";
import { fileStore } from "~/lib/storage.server";
import { deleteMedia, getMediaByName, mediaNotFound, servedFile } from "~/models/media.server";
import type { Route } from "./+types/videos.file";

/** GET/HEAD /api/videos/{name}: the video's bytes (byte ranges: 206, 416), to its owner only. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  const file = await getMediaByName(user.id, "video", params.name);
  if (!file) return apiError(404, mediaNotFound("video"));
  return fileResponse(request, fileStore, servedFile(file));
}

/** DELETE /api/videos/{name} -> {ok: true, filename}; unknown or another user's -> 404. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return apiError(405, "Method not allowed", { Allow: "GET, HEAD, DELETE" });
  const user = await requireApiUser(context, request);
  if (!(await deleteMedia(user.id, "video", params.name))) return apiError(404, mediaNotFound("video"));
  return Response.json({ ok: true, filename: params.name });
}
