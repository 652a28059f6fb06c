import type { MiddlewareFunction } from "react-router";
import { withHeaders } from "~/lib/middleware.server";
import { requestSessionContext, resolveSession, SESSION_COOKIE } from "./session.server";

/**
 * Resolves the session cookie once per request (refreshing an expired access token) and writes
 * the refreshed cookie on the way out, unless the route set the session cookie itself (login, logout).
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { session, setCookie } = await resolveSession(request);
  context.set(requestSessionContext, session);
  const response = await next();
  if (!setCookie) return response;
  const routeSetSession = response.headers.getSetCookie().some((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  if (routeSetSession) return response;
  return withHeaders(response, (headers) => headers.append("Set-Cookie", setCookie));
};
