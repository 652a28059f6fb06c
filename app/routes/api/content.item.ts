import { requireApiUser } from "~/auth/auth.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { contentNotFound, deleteContent, requireContent, saveContent } from "~/models/content/content.server";
import { contentUpdateSchema } from "~/models/content/content-input.server";
import type { Route } from "./+types/content.item";

/** GET /api/content/{id} -> the item; another user's item or an unknown id -> 404. */
export const loader = apiAction(async ({ request, context, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(context, request);
  return Response.json(await requireContent(user.id, params.id), { headers: { "Cache-Control": "no-store" } });
});

/**
 * PUT /api/content/{id} {title, body?, updated_at?} -> the saved item; 409 {detail, current: the
 * stored item} when updated_at is older than the stored version. DELETE /api/content/{id} -> {ok: true}.
 */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["PUT", "DELETE"], "GET, PUT, DELETE");
  const user = await requireApiUser(context, request);
  if (request.method === "DELETE") {
    if (!(await deleteContent(user.id, params.id))) throw contentNotFound();
    return Response.json({ ok: true, id: params.id });
  }
  const { updated_at, editing_since, ...input } = parseInput(contentUpdateSchema, await readJsonBody(request));
  return Response.json(
    await saveContent(user.id, params.id, input, { expectedUpdatedAt: updated_at, editingSince: editing_since }),
  );
});
