import { voiceGenerateSchema } from "~/ai/inputs.server";
import { speak } from "~/services/generation.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import type { Route } from "./+types/voice.generate";

/**
 * POST /api/voice/generate {text, voice_id} -> {url, audio_url, media_id, filename, voice_id}: the spoken
 * text, stored as the person's file (served by /media/{id}; a project attaches it by media_id).
 * Text of 1-2,000 characters; an unknown voice -> 422; a provider failure -> 502/504.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const { text, voice_id } = parseInput(voiceGenerateSchema, await readJsonBody(request));
  const spoken = await speak(user.id, text, voice_id || undefined, request.signal);
  return Response.json(
    { url: spoken.url, audio_url: spoken.url, media_id: spoken.media_id, filename: spoken.filename, voice_id: spoken.voice_id },
    { status: 201 },
  );
});

export const loader = refuseMethod("POST");
