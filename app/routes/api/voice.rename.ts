import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { queryOf } from "~/lib/http/bodies.server";
import { renameInLibrary } from "~/services/media/voice-video-files.server";
import type { Route } from "./+types/voice.rename";

export const loader = refuseMethod("PUT");

/**
 * PUT /api/voice/rename?old_name=&new_name= -> {filename, old_name}. The new name is trimmed and
 * gets .mp3 when missing; blank, control characters, / or \ or over 120 characters -> 422; taken -> 409.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["PUT"]);
  const user = await requireApiUser(context, request);
  return Response.json(await renameInLibrary(user.id, "voice", queryOf(request)));
});
