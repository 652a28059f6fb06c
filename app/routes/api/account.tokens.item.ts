import { requireSignedInCaller } from "~/auth/auth.server";
import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { revokeApiToken } from "~/models/accounts/api-token.server";
import type { Route } from "./+types/account.tokens.item";

/** DELETE /api/account/tokens/{id} -> 204: the token is 401 from its next use. Not one of the person's -> 404.
 * A personal API token -> 403 (requireSignedInCaller): a leaked script token cannot revoke the others. */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["DELETE"]);
  const { user } = await requireSignedInCaller(context, request);
  if (!(await revokeApiToken(user.id, params.id))) throw new DomainError(404, "Token not found");
  return new Response(null, { status: 204 });
});

export const loader = refuseMethod("DELETE");
