import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { listLibrary } from "~/services/media-library.server";
import type { Route } from "./+types/voice.list-files";

/** GET /api/voice/list-files -> {files: [name, ...]}, newest first. */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const files = await listLibrary(user.id, "voice");
  return Response.json({ files: files.map((file) => file.name) }, { headers: { "Cache-Control": "no-store" } });
});

export const action = refuseMethod("GET");
