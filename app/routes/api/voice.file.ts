import { requireApiUser } from "~/auth/auth.server";
import { apiError } from "~/lib/http.server";
import { deleteMedia, mediaNotFound } from "~/models/media.server";
import type { Route } from "./+types/voice.file";

export const loader = () => apiError(405, "Method not allowed", { Allow: "DELETE" });

/** DELETE /api/voice/file/{name} -> {ok: true, filename}; unknown or another user's -> 404. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return apiError(405, "Method not allowed", { Allow: "DELETE" });
  const user = await requireApiUser(context, request);
  if (!(await deleteMedia(user.id, "voice", params.name))) return apiError(404, mediaNotFound("voice"));
  return Response.json({ ok: true, filename: params.name });
}
