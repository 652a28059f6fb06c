import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { uploadToLibrary } from "~/services/media/voice-video-files.server";
import type { Route } from "./+types/voice.upload";

export const loader = refuseMethod("POST");

/**
 * POST /api/voice/upload, multipart field `file` -> 201 {filename, size, updated_at}. The content
 * must be MP3 (415), at most VOICE_MAX_BYTES (413); a name the user already has -> 409, nothing kept.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const { entry, location } = await uploadToLibrary(user.id, "voice", request);
  return Response.json(entry, { status: 201, headers: { Location: location } });
});
