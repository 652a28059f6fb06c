import { z } from "zod";
import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { endSession } from "~/auth/session.server";
import { bearerTokenOf } from "~/auth/auth.server";
import { revokeAccessTokenFamily } from "~/models/accounts/access-token.server";
import { isApiToken } from "~/models/accounts/api-token.server";
import { revokeRefreshToken } from "~/models/accounts/token-pair.server";
import type { Route } from "./+types/auth.logout";

const logoutSchema = z.object({ refresh_token: z.string().max(512).optional() });

/** The 400 of a logout with a personal API token: it says how such a token is ended. */
const PERSONAL_TOKEN_CANNOT_LOG_OUT =
  "A personal API token is not a session and cannot log out: revoke it on the Account screen, or with DELETE /api/account/tokens/{id} from a signed-in session.";

/**
 * POST /api/auth/logout: revokes what the request names, the given refresh token's family, the
 * bearer access token's family (an API client that sends only its access token) and the cookie's,
 * and clears the cookie. A personal API token (`cas_…`) as the bearer is 400 with nothing ended: it is
 * no session, and `{"ok": true}` would let a script believe its token is dead when it is not.
 */
export const action = apiAction(async ({ request }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const bearer = bearerTokenOf(request.headers.get("Authorization") ?? "");
  if (bearer && isApiToken(bearer)) throw new DomainError(400, PERSONAL_TOKEN_CANNOT_LOG_OUT);
  const { refresh_token } = parseInput(logoutSchema, await readJsonBody(request));
  if (refresh_token) await revokeRefreshToken(refresh_token);
  if (bearer) await revokeAccessTokenFamily(bearer);
  return Response.json({ ok: true }, { headers: { "Set-Cookie": await endSession(request) } });
});

export const loader = refuseMethod("POST");
