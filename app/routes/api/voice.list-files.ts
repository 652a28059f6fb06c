import { requireApiUser } from "~/auth/auth.server";
import { apiError } from "~/lib/http.server";
import { listMedia } from "~/models/media.server";
import type { Route } from "./+types/voice.list-files";

/** GET /api/voice/list-files -> {files: [name, ...]}, newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  const files = await listMedia(user.id, "voice");
  return Response.json({ files: files.map((file) => file.name) }, { headers: { "Cache-Control": "no-store" } });
}

export const action = () => apiError(405, "Method not allowed", { Allow: "GET" });
