import { requireApiUser } from "~/auth/auth.server";
import { apiError } from "~/lib/http.server";
import { listProjects } from "~/models/project.server";
import type { Route } from "./+types/project";

/** GET /api/project/ -> {projects: [...]}, most recently changed first (SPEC §7 Projects). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  const projects = await listProjects(user.id);
  return Response.json({ projects }, { headers: { "Cache-Control": "no-store" } });
}

export const action = () => apiError(405, "Method not allowed: create with POST /api/project/create", { Allow: "GET" });
