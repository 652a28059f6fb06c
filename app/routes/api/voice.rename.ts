import { z } from "zod";
import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput } from "~/lib/http.server";
import { mediaErrorResponse, renameMedia } from "~/models/media.server";
import type { Route } from "./+types/voice.rename";

const renameQuery = z.object({
  old_name: z.string({ error: "old_name is required" }).min(1, "old_name is required"),
  new_name: z.string({ error: "new_name is required" }),
});

export const loader = () => apiError(405, "Method not allowed", { Allow: "PUT" });

/**
 * PUT /api/voice/rename?old_name=&new_name= -> {filename, old_name}. The new name is trimmed and
 * gets .mp3 when missing; blank, control characters, / or \ or over 120 characters -> 422; taken -> 409.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PUT") return apiError(405, "Method not allowed", { Allow: "PUT" });
  const user = await requireApiUser(context, request);
  const query = parseApiInput(renameQuery, Object.fromEntries(new URL(request.url).searchParams));
  try {
    const file = await renameMedia(user.id, "voice", query.old_name, query.new_name);
    return Response.json({ filename: file.name, old_name: query.old_name });
  } catch (error) {
    return mediaErrorResponse(error);
  }
}
