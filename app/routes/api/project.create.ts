import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { createProject } from "~/models/projects/project.server";
import { projectCreateSchema } from "~/models/projects/project-input.server";
import type { Route } from "./+types/project.create";

/**
 * POST /api/project/create {title, description?, voice_file?, music_file?, video_file?,
 * image_file?} -> 201 with the project. A file that is not the person's own -> 422.
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const input = parseInput(projectCreateSchema, await readJsonBody(request));
  const project = await createProject(user.id, input);
  return Response.json(project, {
    status: 201,
    headers: { Location: `/api/project/${encodeURIComponent(project.id)}` },
  });
});

export const loader = refuseMethod("POST");
