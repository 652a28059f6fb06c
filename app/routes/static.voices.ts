import { requireApiUser } from "~/auth/auth.server";
import { apiError } from "~/lib/http/responder.server";
import { fileResponse } from "~/lib/http/file-response.server";
import { fileStore } from "~/lib/storage/storage.server";
import { getMediaByName, mediaNotFound, servedFile } from "~/models/media/media.server";
import type { Route } from "./+types/static.voices";

/**
 * GET/HEAD /static/voices/{name} (docs/api.md#every-call): a voice file, to its owner only (session cookie or
 * bearer token), with byte ranges so players seek. Bundled static files never reach this route:
 * the front door serves public/ first, and no voices folder exists there.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  const file = await getMediaByName(user.id, "voice", params.name);
  if (!file) return apiError(404, mediaNotFound("voice"));
  return fileResponse(request, fileStore, servedFile(file));
}

export const action = () => apiError(405, "Method not allowed", { Allow: "GET, HEAD" });
