import { PERSONAL_TOKEN_CANNOT_MANAGE_SHARES, requireSignedInCaller } from "~/auth/auth.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { revokeShare } from "~/models/sharing/share.server";
import type { Route } from "./+types/shares.item";

/**
 * DELETE /api/shares/{id} -> 204: the link and its files stop at once. Not one of the person's live
 * links (another person's, or already revoked) -> 404. Works with SHARING=off too, so links can be ended.
 * A signed-in session only: a personal API token is 403 (docs/decisions/0090).
 */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["DELETE"]);
  const { user } = await requireSignedInCaller(context, request, PERSONAL_TOKEN_CANNOT_MANAGE_SHARES);
  await revokeShare(user.id, params.id);
  return new Response(null, { status: 204 });
});

export const loader = refuseMethod("DELETE");
