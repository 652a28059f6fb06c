import { requireSignedInCaller } from "~/auth/auth.server";
import { apiAction, requireMethod } from "~/lib/http/responder.server";
import { revokeOtherSessions } from "~/models/accounts/sessions.server";
import { accountSessions } from "~/services/accounts/account.server";
import type { Route } from "./+types/account.sessions";

/**
 * GET /api/account/sessions -> {sessions: [{id, device, created_at, last_used_at, current}]}: the caller's own first.
 * This file's calls need a signed-in session: a personal API token gets 403 (requireSignedInCaller).
 */
export const loader = apiAction(async ({ request, context }: Route.LoaderArgs) => {
  const caller = await requireSignedInCaller(context, request);
  return Response.json({ sessions: await accountSessions(caller) });
});

/** DELETE /api/account/sessions -> {sessions_ended}: log out everywhere else (every session but the caller's). */
export const action = apiAction(async ({ request, context }: Route.ActionArgs) => {
  requireMethod(request, ["DELETE"], "GET, DELETE");
  const caller = await requireSignedInCaller(context, request);
  return Response.json({ sessions_ended: await revokeOtherSessions(caller.user.id, caller.sessionId) });
});
