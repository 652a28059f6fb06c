import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod } from "~/lib/http/responder.server";
import { listProjects } from "~/models/project.server";
import type { Route } from "./+types/project";

/** GET /api/project/ -> {projects: [...]}, most recently changed first (SPEC §7 Projects). */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const projects = await listProjects(user.id);
  return Response.json({ projects }, { headers: { "Cache-Control": "no-store" } });
});

export const action = refuseMethod("GET", "Method not allowed: create with POST /api/project/create");
