import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import { CONTENT_CONFLICT, CONTENT_NOT_FOUND, contentUpdateSchema, updateContent } from "~/models/content.server";
import type { Route } from "./+types/content.autosave";

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });

/**
 * POST /api/content/{id}/autosave {title, body?, updated_at?} -> the saved item. An autosave based on
 * an older version than the stored one is refused with 409, so it never overwrites a newer save.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed", { Allow: "POST" });
  const user = await requireApiUser(context, request);
  const { updated_at, ...input } = parseApiInput(contentUpdateSchema, await readJsonBody(request));
  const result = await updateContent(user.id, params.id, input, { expectedUpdatedAt: updated_at });
  if (result.ok) return Response.json(result.item);
  if (result.reason === "conflict") return apiError(409, CONTENT_CONFLICT);
  return apiError(404, CONTENT_NOT_FOUND);
}
