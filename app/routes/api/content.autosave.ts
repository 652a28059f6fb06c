import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { autosaveContent } from "~/models/content/content.server";
import type { Route } from "./+types/content.autosave";

export const loader = refuseMethod("POST");

/**
 * POST /api/content/{id}/autosave {title, body?, updated_at?} -> the saved item. An autosave based on
 * an older version than the stored one is refused with 409 {detail, current: the stored item}, so it
 * never overwrites a newer save and the editor needs no second request to show what is stored.
 */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  return Response.json(await autosaveContent(user.id, params.id, await readJsonBody(request)));
});
