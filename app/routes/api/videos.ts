import { requireApiUser } from "~/auth/auth.server";
import { pageHeaders, pageOf } from "~/lib/http/paging.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { libraryEntry, listLibraryPage } from "~/services/media/voice-video-files.server";
import type { Route } from "./+types/videos";

/**
 * GET /api/videos -> [{filename, size, updated_at}], newest first, a page at a time (?limit= 100 unless
 * asked, at most 500; ?offset=; X-Total-Count and Link rel="next": app/lib/http/paging.server.ts).
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const page = pageOf(request);
  const { files, total } = await listLibraryPage(user.id, "video", page);
  return Response.json(files.map(libraryEntry), {
    headers: { "Cache-Control": "no-store", ...pageHeaders(request, page, files.length, total) },
  });
});

export const action = refuseMethod("GET");
