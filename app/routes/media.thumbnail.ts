import { requireApiUser } from "~/auth/auth.server";
import { isDomainError } from "~/lib/domain-error";
import { apiError, errorResponse } from "~/lib/http/responder.server";
import { fileStore } from "~/lib/storage/storage.server";
import { THUMBNAIL_SOURCE_MAX, thumbnailOf } from "~/lib/storage/thumbnails.server";
import { getOwnedMedia } from "~/models/media/ai-media.server";
import type { Route } from "./+types/media.thumbnail";

/**
 * GET/HEAD /media/{id}/thumbnail: a small WebP preview of one of the person's images (the library's
 * grid), owner only, nosniff, cached (in memory on the server, privately by the browser). Not an
 * image, too large a file, or another user's -> 404; too many pixels -> 422; too many previews of
 * this person at once -> 429 with Retry-After (app/lib/storage/thumbnails.server.ts). Server-Timing says
 * whether the preview was made for this request, shared with one being made, or cached.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  const file = await getOwnedMedia(user.id, params.id);
  if (!file || file.contentType !== "image/png" || file.size > THUMBNAIL_SOURCE_MAX)
    return apiError(404, "File not found");
  const version = `${file.size}-${Date.parse(file.updatedAt).toString(36)}`;
  const etag = `"thumb-${file.id}-${version}"`;
  const headers = new Headers({
    "Content-Type": "image/webp",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, max-age=86400",
    ETag: etag,
    "Content-Security-Policy": "default-src 'none'; sandbox",
  });
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  const started = performance.now();
  let made: Awaited<ReturnType<typeof thumbnailOf>>;
  try {
    made = await thumbnailOf(fileStore, file.id, version, user.id);
  } catch (error) {
    if (isDomainError(error)) return errorResponse(error);
    // Bytes that pass the PNG check but do not decode: no preview, the tile shows the name.
    return apiError(404, "No preview for this file");
  }
  const { thumbnail, source } = made;
  headers.set("Server-Timing", `thumbnail;desc="${source}";dur=${(performance.now() - started).toFixed(1)}`);
  headers.set("Content-Length", String(thumbnail.length));
  return new Response(request.method === "HEAD" ? null : new Uint8Array(thumbnail), { headers });
}

export const action = () => apiError(405, "Method not allowed", { Allow: "GET, HEAD" });
