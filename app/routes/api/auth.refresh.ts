import { z } from "zod";
import { DomainError } from "~/lib/domain-error";
import { apiAction, refuseMethod, requireMethod } from "~/lib/http/responder.server";
import { parseInput } from "~/lib/screens/validation.server";
import { readJsonBody } from "~/lib/http/bodies.server";
import { commitTokenPair, refreshTokenFromCookie, sessionStorage } from "~/auth/session.server";
import { rotateRefreshToken } from "~/models/accounts/token-pair.server";
import type { Route } from "./+types/auth.refresh";
import { env } from "~/lib/settings/env.server";

const refreshSchema = z.object({ refresh_token: z.string().max(512).optional() });

const REFUSED: Record<string, string> = {
  unknown: "Invalid refresh token",
  expired: "Refresh token expired",
  revoked: "Refresh token revoked",
  reused: "Refresh token already used; please log in again",
};

/**
 * POST /api/auth/refresh {refresh_token} -> a new pair in the body (API clients). Presented again within
 * a few seconds (parallel refreshes, a retry after a lost answer, on any instance), the same token
 * answers with the same pair; later, reuse revokes the token's family (401).
 * With no token in the body the session cookie's pair is rotated instead and the new pair goes
 * back into the HttpOnly cookie only: page scripts never see tokens (DESIGN.md).
 */
export const action = apiAction(async ({ request }: Route.ActionArgs) => {
  requireMethod(request, ["POST"]);
  const { refresh_token } = parseInput(refreshSchema, await readJsonBody(request));
  const noStore = { "Cache-Control": "no-store" };

  if (refresh_token) {
    const rotation = await rotateRefreshToken(refresh_token);
    if (!rotation.ok) throw new DomainError(401, REFUSED[rotation.reason]);
    return Response.json(rotation.pair, { headers: noStore });
  }

  const cookieToken = await refreshTokenFromCookie(request);
  if (!cookieToken) throw new DomainError(401, "Missing refresh token");
  // The root middleware may already have rotated this very cookie for this request: within the grace
  // window the spent token answers with the same pair (app/models/accounts/token-pair.server.ts).
  const rotation = await rotateRefreshToken(cookieToken);
  if (!rotation.ok) {
    const cleared = await sessionStorage.destroySession(await sessionStorage.getSession(request.headers.get("Cookie")));
    throw new DomainError(401, REFUSED[rotation.reason], { headers: { "Set-Cookie": cleared } });
  }
  return Response.json(
    { token_type: "bearer", expires_in: env.accessTokenMinutes * 60, session: "refreshed" },
    { headers: { ...noStore, "Set-Cookie": await commitTokenPair(request, rotation.pair) } },
  );
});

export const loader = refuseMethod("POST");
