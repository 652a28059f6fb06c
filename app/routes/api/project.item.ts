import { requireApiUser } from "~/auth/auth.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { deleteProject, getProject, projectNotFound, updateProject } from "~/models/projects/project.server";
import { projectUpdateSchema } from "~/models/projects/project-input.server";
import type { Route } from "./+types/project.item";

/** GET /api/project/{id} -> the project; another user's project or an unknown id -> 404. */
export const loader = apiAction(async ({ request, context, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  const project = await getProject(user.id, params.id);
  if (!project) throw projectNotFound();
  return Response.json(project, { headers: { "Cache-Control": "no-store" } });
});

/**
 * PUT /api/project/{id} {title, description?, voice_file?, music_file?, video_file?,
 * image_file?} -> the saved project (left-out fields keep their value; null detaches a file; a file
 * that is not the person's own -> 422). DELETE /api/project/{id} -> {ok: true, id}.
 */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["PUT", "DELETE"], "GET, PUT, DELETE");
  const user = await requireApiUser(context, request);
  if (request.method === "DELETE") {
    if (!(await deleteProject(user.id, params.id))) throw projectNotFound();
    return Response.json({ ok: true, id: params.id });
  }
  const input = parseInput(projectUpdateSchema, await readJsonBody(request));
  const project = await updateProject(user.id, params.id, input);
  if (!project) throw projectNotFound();
  return Response.json(project);
});
