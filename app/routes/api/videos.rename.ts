import { z } from "zod";
import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import { mediaErrorResponse, renameMedia } from "~/models/media.server";
import type { Route } from "./+types/videos.rename";

const renameBody = z.object({
  old_name: z.string({ error: "old_name is required" }).min(1, "old_name is required"),
  new_name: z.string({ error: "new_name is required" }),
});

export const loader = () => apiError(405, "Method not allowed", { Allow: "PUT" });

/**
 * PUT /api/videos/rename {old_name, new_name} -> {filename, old_name}. The new name is trimmed and
 * gets .mov when missing; blank or unsafe -> 422; taken -> 409; unknown or another user's -> 404.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PUT") return apiError(405, "Method not allowed", { Allow: "PUT" });
  const user = await requireApiUser(context, request);
  const body = parseApiInput(renameBody, await readJsonBody(request));
  try {
    const file = await renameMedia(user.id, "video", body.old_name, body.new_name);
    return Response.json({ filename: file.name, old_name: body.old_name });
  } catch (error) {
    return mediaErrorResponse(error);
  }
}
