import { z } from "zod";
import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { queryOf } from "~/lib/http/bodies.server";
import { signMediaAccess } from "~/lib/storage/signed-url.server";
import { libraryFile } from "~/services/media/voice-video-files.server";
import type { Route } from "./+types/videos.signed-url";

const signedUrlQuery = z.object({
  filename: z.string({ error: "filename is required" }).min(1, "filename is required"),
});

/**
 * GET /api/videos/signed_url?filename= -> {url, expires_at}: a link that plays the video without a
 * session for one hour (byte ranges included), bound to this user, this file and its expiry. The
 * URL is root-relative: behind a TLS proxy the request's own URL may say http://, so the client
 * resolves it against the page it is on.
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const { filename } = parseInput(signedUrlQuery, queryOf(request));
  const file = await libraryFile(user.id, "video", filename);
  const { expiresAt, ...query } = signMediaAccess(user.id, file.id);
  const url = `/api/videos/play/${encodeURIComponent(file.id)}?${new URLSearchParams(query)}`;
  return Response.json({ url, expires_at: expiresAt.toISOString() }, { headers: { "Cache-Control": "no-store" } });
});

export const action = refuseMethod("GET");
