import { listVoices } from "~/services/media/generation.server";
import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import type { Route } from "./+types/voice.voices";

/** GET /api/voice/voices -> {voices: [{voice_id, name}]}: the speech provider's voices. */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  await requireApiUser(context, request);
  const voices = await listVoices(request.signal);
  return Response.json({ voices }, { headers: { "Cache-Control": "private, max-age=60" } });
});

export const action = refuseMethod("GET");
