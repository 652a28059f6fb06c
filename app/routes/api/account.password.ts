import { requireSignedInCaller } from "~/auth/auth.server";
import { clientAddress } from "~/lib/http/client-address.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { changePassword } from "~/services/accounts/account.server";
import type { Route } from "./+types/account.password";

/**
 * POST /api/account/password {current_password, new_password, revoke_tokens?, revoke_shares?} -> {ok: true,
 * sessions_ended, tokens_revoked, shares_revoked}: every other session ends, the caller's own goes on; with
 * revoke_tokens (default true) every personal API token is revoked too, with revoke_shares (default
 * false) every share link the person made (their pages answer 410 at once). A wrong current password is
 * 400 {detail}; a new one that breaks the account rules 400 with the rule; too many wrong tries 429,
 * a busy server 503. A signed-in session only: a personal API token is 403 (requireSignedInCaller).
 */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const caller = await requireSignedInCaller(context, request);
  const { sessionsEnded, tokensRevoked, sharesRevoked } = await changePassword(
    caller,
    await readJsonBody(request),
    clientAddress(context),
  );
  return Response.json({
    ok: true,
    sessions_ended: sessionsEnded,
    tokens_revoked: tokensRevoked,
    shares_revoked: sharesRevoked,
  });
});

export const loader = refuseMethod("POST");
