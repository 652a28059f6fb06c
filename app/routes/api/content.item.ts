import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import {
  CONTENT_CONFLICT,
  CONTENT_NOT_FOUND,
  contentUpdateSchema,
  deleteContent,
  getContent,
  updateContent,
} from "~/models/content.server";
import type { Route } from "./+types/content.item";

/** GET /api/content/{id} -> the item; another user's item or an unknown id -> 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireApiUser(context, request);
  const item = await getContent(user.id, params.id);
  if (!item) return apiError(404, CONTENT_NOT_FOUND);
  return Response.json(item, { headers: { "Cache-Control": "no-store" } });
}

/**
 * PUT /api/content/{id} {title, body?, updated_at?} -> the saved item; 409 when updated_at is older
 * than the stored version. DELETE /api/content/{id} -> {ok: true}.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") return apiError(405, "Method not allowed", { Allow: "GET, PUT, DELETE" });
  const user = await requireApiUser(context, request);
  if (request.method === "DELETE") {
    if (!(await deleteContent(user.id, params.id))) return apiError(404, CONTENT_NOT_FOUND);
    return Response.json({ ok: true, id: params.id });
  }
  const { updated_at, ...input } = parseApiInput(contentUpdateSchema, await readJsonBody(request));
  const result = await updateContent(user.id, params.id, input, { expectedUpdatedAt: updated_at });
  if (result.ok) return Response.json(result.item);
  if (result.reason === "conflict") return apiError(409, CONTENT_CONFLICT);
  return apiError(404, CONTENT_NOT_FOUND);
}
