import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { uploadToLibrary } from "~/services/media/voice-video-files.server";
import type { Route } from "./+types/videos.upload";

export const loader = refuseMethod("POST");

/**
 * POST /api/videos/upload, multipart field `file` -> 201 {filename, size, updated_at}. Streamed to
 * disk; the content must be a video container (415), at most VIDEO_MAX_BYTES (413). The name keeps
 * the uploaded file's name with .mov (docs/api.md#entities-and-payloads); a name the user already has -> 409, nothing kept.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const { entry, location } = await uploadToLibrary(user.id, "video", request);
  return Response.json(entry, { status: 201, headers: { Location: location } });
});
