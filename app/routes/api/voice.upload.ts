import { requireApiUser } from "~/auth/auth.server";
import { apiError } from "~/lib/http.server";
import { mediaErrorResponse, receiveMediaUpload } from "~/models/media.server";
import type { Route } from "./+types/voice.upload";

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });

/**
 * POST /api/voice/upload, multipart field `file` -> 201 {filename}. The content must be MP3 (415),
 * at most VOICE_MAX_BYTES (413); a name the user already has -> 409, nothing kept.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed", { Allow: "POST" });
  const user = await requireApiUser(context, request);
  try {
    const { file } = await receiveMediaUpload(user.id, "voice", request);
    return Response.json(
      { filename: file.name, size: file.size, updated_at: file.updatedAt },
      { status: 201, headers: { Location: `/static/voices/${encodeURIComponent(file.name)}` } },
    );
  } catch (error) {
    return mediaErrorResponse(error);
  }
}
