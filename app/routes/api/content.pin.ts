import { requireApiUser } from "~/auth/auth.server";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import { CONTENT_NOT_FOUND, pinSchema, setPinned } from "~/models/content.server";
import type { Route } from "./+types/content.pin";

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });

/** POST /api/content/{id}/pin {pinned: boolean} -> the item. Pinning does not change updated_at. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed", { Allow: "POST" });
  const user = await requireApiUser(context, request);
  const { pinned } = parseApiInput(pinSchema, await readJsonBody(request));
  const item = await setPinned(user.id, params.id, pinned);
  if (!item) return apiError(404, CONTENT_NOT_FOUND);
  return Response.json(item);
}
