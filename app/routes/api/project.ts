import { requireApiUser } from "~/auth/auth.server";
import { pageHeaders, pageOf } from "~/lib/http/paging.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { listProjectPage } from "~/models/projects/project.server";
import type { Route } from "./+types/project";

/**
 * GET /api/project/ -> {projects: [...]}, most recently changed first (docs/api.md#every-call), a page at a
 * time (?limit= 100 unless asked, at most 500; ?offset=; X-Total-Count and Link rel="next":
 * app/lib/http/paging.server.ts).
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const page = pageOf(request);
  const { projects, total } = await listProjectPage(user.id, page);
  return Response.json(
    { projects },
    { headers: { "Cache-Control": "no-store", ...pageHeaders(request, page, projects.length, total) } },
  );
});

export const action = refuseMethod("GET", "Method not allowed: create with POST /api/project/create");
