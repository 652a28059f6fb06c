import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import { createProject, projectCreateSchema, ProjectMediaError } from "~/models/project.server";
import type { Route } from "./+types/project.create";

/**
 * POST /api/project/create {title, description?, voice_file?, music_file?, video_file?,
 * image_file?} -> 201 with the project. A file that is not the person's own -> 422.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed", { Allow: "POST" });
  const user = await requireApiUser(context, request);
  const input = parseApiInput(projectCreateSchema, await readJsonBody(request));
  try {
    const project = await createProject(user.id, input);
    return Response.json(project, { status: 201, headers: { Location: `/api/project/${encodeURIComponent(project.id)}` } });
  } catch (error) {
    if (error instanceof ProjectMediaError) return apiError(422, error.message);
    throw error;
  }
}

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });
