import { requireApiUser } from "~/auth/auth.server";
import { fileResponse } from "~/lib/http/file-response.server";
import { apiError } from "~/lib/http/responder.server";
import { fileStore } from "~/lib/storage/storage.server";
import { getOwnedMedia } from "~/models/media/ai-media.server";
import { servedFile } from "~/models/media/media.server";
import type { Route } from "./+types/media";

/**
 * GET/HEAD /media/{id}: one of the person's stored files (generated speech, images, AI video) by its
 * id, to its owner only (session cookie or bearer token): the stored Content-Type, nosniff and byte
 * ranges (206) so audio and video seek. Another user's file or an unknown id -> 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  const file = await getOwnedMedia(user.id, params.id);
  if (!file) return apiError(404, "File not found");
  return fileResponse(request, fileStore, servedFile(file));
}

export const action = () => apiError(405, "Method not allowed", { Allow: "GET, HEAD" });
