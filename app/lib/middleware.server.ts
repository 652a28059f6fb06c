import type { MiddlewareFunction } from "react-router";
import { apiError } from "./http.server";
import { isCrossOriginMutation, SECURITY_HEADERS } from "./security.server";
import { requestSessionContext, resolveSession, SESSION_COOKIE } from "./session.server";

function withHeaders(response: Response, apply: (headers: Headers) => void): Response {
  try {
    apply(response.headers);
    return response;
  } catch {
    // Some responses (e.g. from fetch) have immutable headers: copy them.
    const copy = new Response(response.body, response);
    apply(copy.headers);
    return copy;
  }
}

/** Refuses cross-site form posts and API writes; adds the security headers to every answer. */
export const securityMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (isCrossOriginMutation(request)) {
    const isApi = new URL(request.url).pathname.startsWith("/api/");
    throw isApi ? apiError(403, "Cross-origin request refused") : new Response("Cross-origin request refused", { status: 403 });
  }
  const response = await next();
  return withHeaders(response, (headers) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!headers.has(name)) headers.set(name, value);
  });
};

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
