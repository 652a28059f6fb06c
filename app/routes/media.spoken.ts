import { requireApiUser } from "~/auth/auth.server";
import { fileResponse } from "~/lib/http/file-response.server";
import { apiError } from "~/lib/http/responder.server";
import { fileStore } from "~/lib/storage/storage.server";
import { getOwnedMedia } from "~/models/media/ai-media.server";
import { servedFile } from "~/models/media/media.server";
import { getTransientSpeech } from "~/models/media/transient-speech.server";
import type { Route } from "./+types/media.spoken";

/**
 * GET/HEAD /media/spoken/{id}: speech generated with keep: false (docs/decisions/0042), to its owner
 * only (session cookie or bearer token), while it lives (10 minutes), with byte ranges as /media/{id}.
 * Once "Save to library" kept it, the same URL plays the kept file, so a player on the page keeps
 * working. Expired, unknown or another person's -> 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  const clip = await getTransientSpeech(user.id, params.id);
  if (clip)
    return fileResponse(request, fileStore, {
      key: clip.id,
      name: clip.name,
      contentType: clip.contentType,
      size: clip.size,
      updatedAt: clip.createdAt,
    });
  const kept = await getOwnedMedia(user.id, params.id);
  if (kept?.kind === "speech") return fileResponse(request, fileStore, servedFile(kept));
  return apiError(404, "File not found");
}

export const action = () => apiError(405, "Method not allowed", { Allow: "GET, HEAD" });
