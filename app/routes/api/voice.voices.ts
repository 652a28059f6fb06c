import { providerErrorResponse } from "~/ai/errors.server";
import { listVoices } from "~/services/generation.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiError } from "~/lib/http.server";
import type { Route } from "./+types/voice.voices";

/** GET /api/voice/voices -> {voices: [{voice_id, name}]}: the speech provider's voices. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiUser(context, request);
  try {
    const voices = await listVoices(request.signal);
    return Response.json({ voices }, { headers: { "Cache-Control": "private, max-age=60" } });
  } catch (error) {
    return providerErrorResponse(error, "speech");
  }
}

export const action = () => apiError(405, "Method not allowed", { Allow: "GET" });
