import { requireApiUser } from "~/auth/auth.server";
import { apiError } from "~/lib/http.server";
import { listMedia } from "~/models/media.server";
import type { Route } from "./+types/videos";

/** GET /api/videos -> [{filename, size, updated_at}], newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  const files = await listMedia(user.id, "video");
  return Response.json(
    files.map((file) => ({ filename: file.name, size: file.size, updated_at: file.updatedAt })),
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = () => apiError(405, "Method not allowed", { Allow: "GET" });
