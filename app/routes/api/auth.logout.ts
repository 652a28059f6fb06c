import { z } from "zod";
import { apiError, parseApiInput, readJsonBody } from "~/lib/http.server";
import { endSession } from "~/auth/session.server";
import { revokeRefreshToken } from "~/models/token.server";
import type { Route } from "./+types/auth.logout";

const logoutSchema = z.object({ refresh_token: z.string().max(512).optional() });

/** POST /api/auth/logout: revokes the given refresh token's family (or the cookie's) and clears the cookie. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed");
  const { refresh_token } = parseApiInput(logoutSchema, await readJsonBody(request));
  if (refresh_token) await revokeRefreshToken(refresh_token);
  return Response.json({ ok: true }, { headers: { "Set-Cookie": await endSession(request) } });
}

export const loader = () => apiError(405, "Method not allowed", { Allow: "POST" });
