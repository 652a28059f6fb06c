import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import { deleteProject, getProject, PROJECT_NOT_FOUND, ProjectMediaError, projectUpdateSchema, updateProject } from "~/models/project.server";
import type { Route } from "./+types/project.item";

/** GET /api/project/{id} -> the project; another user's project or an unknown id -> 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  const project = await getProject(user.id, params.id);
  if (!project) return apiError(404, PROJECT_NOT_FOUND);
  return Response.json(project, { headers: { "Cache-Control": "no-store" } });
}

/**
 * PUT /api/project/{id} {title, description?, voice_file?, music_file?, video_file?,
 * image_file?} -> the saved project (left-out fields keep their value; null detaches a file).
 * DELETE /api/project/{id} -> {ok: true, id}.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") return apiError(405, "Method not allowed", { Allow: "GET, PUT, DELETE" });
  const user = await requireApiUser(context, request);
  if (request.method === "DELETE") {
    if (!(await deleteProject(user.id, params.id))) return apiError(404, PROJECT_NOT_FOUND);
    return Response.json({ ok: true, id: params.id });
  }
  const input = parseApiInput(projectUpdateSchema, await readJsonBody(request));
  try {
    const project = await updateProject(user.id, params.id, input);
    if (!project) return apiError(404, PROJECT_NOT_FOUND);
    return Response.json(project);
  } catch (error) {
    if (error instanceof ProjectMediaError) return apiError(422, error.message);
    throw error;
  }
}
