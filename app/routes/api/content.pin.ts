import { requireApiUser } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { contentNotFound, setPinned } from "~/models/content/content.server";
import { pinSchema } from "~/models/content/content-input.server";
import type { Route } from "./+types/content.pin";

export const loader = refuseMethod("POST");

/** POST /api/content/{id}/pin {pinned: boolean} -> the item. Pinning does not change updated_at. */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const user = await requireApiUser(context, request);
  const { pinned } = parseInput(pinSchema, await readJsonBody(request));
  const item = await setPinned(user.id, params.id, pinned);
  if (!item) throw contentNotFound();
  return Response.json(item);
});
