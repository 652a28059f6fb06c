import { requireApiUser } from "~/auth/auth.server";
import { pageHeaders, pageOf } from "~/lib/http/paging.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { listLibraryPage } from "~/services/media/voice-video-files.server";
import type { Route } from "./+types/voice.list-files";

/**
 * GET /api/voice/list-files -> {files: [name, ...]}, newest first, a page at a time (?limit= 100 unless
 * asked, at most 500; ?offset=; X-Total-Count and Link rel="next": app/lib/http/paging.server.ts).
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const page = pageOf(request);
  const { files, total } = await listLibraryPage(user.id, "voice", page);
  return Response.json(
    { files: files.map((file) => file.name) },
    { headers: { "Cache-Control": "no-store", ...pageHeaders(request, page, files.length, total) } },
  );
});

export const action = refuseMethod("GET");
