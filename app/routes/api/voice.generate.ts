import { providerErrorResponse } from "~/ai/errors.server";
import { voiceGenerateSchema } from "~/ai/inputs.server";
import { speak, UnknownVoiceError } from "~/services/generation.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import type { Route } from "./+types/voice.generate";

/**
 * POST /api/voice/generate {text, voice_id} -> {url, audio_url, media_id, filename, voice_id}: the spoken
 * text, stored as the person's file (served by /media/{id}; a project attaches it by media_id).
 * Text of 1-2,000 characters; an unknown voice -> 422.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed", { Allow: "POST" });
  const user = await requireApiUser(context, request);
  const { text, voice_id } = parseApiInput(voiceGenerateSchema, await readJsonBody(request));
  try {
    const spoken = await speak(user.id, text, voice_id || undefined, request.signal);
    return Response.json(
      { url: spoken.url, audio_url: spoken.url, media_id: spoken.media_id, filename: spoken.filename, voice_id: spoken.voice_id },
      { status: 201 },
    );
  } catch (error) {
    if (error instanceof UnknownVoiceError) return apiError(422, "Unknown voice");
    return providerErrorResponse(error, "speech");
  }
}

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });
