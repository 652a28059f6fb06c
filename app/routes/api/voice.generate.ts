import { voiceGenerateSchema } from "~/ai/inputs.server";
import { speak, speakUnkept } from "~/services/media/generation.server";
import { requireApiUser } from "~/auth/auth.server";
import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { isRecord, parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import type { Route } from "./+types/voice.generate";

/**
 * POST /api/voice/generate {text, voice_id, keep?} -> 201. Text of 1-2,000 characters; an unknown
 * voice -> 422; a provider failure -> 502/504; over the person's AI limits -> 429.
 * - without `keep`, or `keep: true`: {url, audio_url, media_id, filename, voice_id}, the spoken text
 *   stored as the person's file (served by /media/{id}; a project attaches it by media_id);
 * - `keep: false` (the assistant's spoken replies; docs/decisions/0042): {url, audio_url, voice_id,
 *   media_id: null, filename: null, speech_id, expires_at, keep_url}: the audio plays from `url` for its
 *   owner until `expires_at` (10 minutes), is not a library file and counts toward no quota;
 *   POST keep_url keeps it in the library.
 * `keep` that is not a boolean -> 400.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const body = await readJsonBody(request);
  const keep = isRecord(body) ? body.keep : undefined;
  if (keep !== undefined && typeof keep !== "boolean") throw new DomainError(400, "keep must be true or false");
  const { text, voice_id } = parseInput(voiceGenerateSchema, body);
  if (keep === false) {
    const spoken = await speakUnkept(user.id, text, voice_id || undefined, request.signal);
    return Response.json(
      {
        url: spoken.url,
        audio_url: spoken.url,
        voice_id: spoken.voice_id,
        media_id: null,
        filename: null,
        speech_id: spoken.speech_id,
        expires_at: spoken.expires_at,
        keep_url: `/api/voice/spoken/${encodeURIComponent(spoken.speech_id)}/keep`,
      },
      { status: 201 },
    );
  }
  const spoken = await speak(user.id, text, voice_id || undefined, request.signal);
  return Response.json(
    {
      url: spoken.url,
      audio_url: spoken.url,
      media_id: spoken.media_id,
      filename: spoken.filename,
      voice_id: spoken.voice_id,
    },
    { status: 201 },
  );
});

export const loader = refuseMethod("POST");
