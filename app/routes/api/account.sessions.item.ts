import { requireSignedInCaller } from "~/auth/auth.server";
import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { revokeSession } from "~/models/accounts/sessions.server";
import type { Route } from "./+types/account.sessions.item";

/** DELETE /api/account/sessions/{id} -> 204: that session's next request is signed out. Not one of the person's live sessions -> 404.
 * A personal API token -> 403 (requireSignedInCaller). */
export const action = apiAction(async ({ request, context, params }: Route.ActionArgs) => {
  requireMethod(request, ["DELETE"]);
  const { user } = await requireSignedInCaller(context, request);
  if (!(await revokeSession(user.id, params.id))) throw new DomainError(404, "Session not found");
  return new Response(null, { status: 204 });
});

export const loader = refuseMethod("DELETE");
