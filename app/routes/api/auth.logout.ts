import { z } from "zod";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { endSession } from "~/auth/session.server";
import { bearerTokenOf } from "~/auth/auth.server";
import { revokeAccessTokenFamily } from "~/models/accounts/access-token.server";
import { revokeRefreshToken } from "~/models/accounts/token-pair.server";
import type { Route } from "./+types/auth.logout";

const logoutSchema = z.object({ refresh_token: z.string().max(512).optional() });

/**
 * POST /api/auth/logout: revokes what the request names, the given refresh token's family, the
 * bearer access token's family (an API client that sends only its access token) and the cookie's,
 * and clears the cookie.
 */
export const action = apiAction(async ({ request }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const { refresh_token } = parseInput(logoutSchema, await readJsonBody(request));
  if (refresh_token) await revokeRefreshToken(refresh_token);
  const bearer = bearerTokenOf(request.headers.get("Authorization") ?? "");
  if (bearer) await revokeAccessTokenFamily(bearer);
  return Response.json({ ok: true }, { headers: { "Set-Cookie": await endSession(request) } });
});

export const loader = refuseMethod("POST");
