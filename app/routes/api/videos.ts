import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { libraryEntry, listLibrary } from "~/services/media-library.server";
import type { Route } from "./+types/videos";

/** GET /api/videos -> [{filename, size, updated_at}], newest first. */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const files = await listLibrary(user.id, "video");
  return Response.json(files.map(libraryEntry), { headers: { "Cache-Control": "no-store" } });
});

export const action = refuseMethod("GET");
