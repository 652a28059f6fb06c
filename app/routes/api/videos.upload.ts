import { requireApiUser } from "~/auth/auth.server";
import { apiError } from "~/lib/http.server";
import { mediaErrorResponse, receiveMediaUpload } from "~/models/media.server";
import type { Route } from "./+types/videos.upload";

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });

/**
 * POST /api/videos/upload, multipart field `file` -> 201 {filename, size, updated_at}. Streamed to
 * disk; the content must be a video container (415), at most VIDEO_MAX_BYTES (413). The name keeps
 * the uploaded file's name with .mov (SPEC §3); a name the user already has -> 409, nothing kept.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed", { Allow: "POST" });
  const user = await requireApiUser(context, request);
  try {
    const { file } = await receiveMediaUpload(user.id, "video", request);
    return Response.json(
      { filename: file.name, size: file.size, updated_at: file.updatedAt },
      { status: 201, headers: { Location: `/api/videos/${encodeURIComponent(file.name)}` } },
    );
  } catch (error) {
    return mediaErrorResponse(error);
  }
}
