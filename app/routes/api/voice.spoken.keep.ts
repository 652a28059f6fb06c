import { keepSpokenReply } from "~/services/media/generation.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import type { Route } from "./+types/voice.spoken.keep";

/**
 * POST /api/voice/spoken/{speech_id}/keep: "Save to library" for speech generated with keep: false
 * (docs/decisions/0042). The clip, while it lives, becomes the person's speech file:
 * 201 {url, audio_url, media_id, filename, voice_id} as POST /api/voice/generate answers a kept one;
 * 200 with the same when it was kept already (voice_id may then be null). No body is read and no AI
 * request is made: what is kept is what was heard. Expired, unknown or another person's -> 404;
 * past the storage quota -> 413 (it stays unkept).
 */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const kept = await keepSpokenReply(user.id, params.id);
  return Response.json(
    { url: kept.url, audio_url: kept.url, media_id: kept.media_id, filename: kept.filename, voice_id: kept.voice_id },
    { status: kept.created ? 201 : 200 },
  );
});

export const loader = refuseMethod("POST");
