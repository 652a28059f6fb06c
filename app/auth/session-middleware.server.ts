import type { MiddlewareFunction } from "react-router";
import { withHeaders } from "~/lib/middleware.server";
import { requestSessionContext, requestUrlContext, resolveSession, SESSION_COOKIE, signInRequiredContext } from "./session.server";

/** What a personal page answers with: no shared cache and no back/forward cache may keep it. */
export const PERSONAL_CACHE_CONTROL = "private, no-store";

/**
 * Marks a page of nobody in particular (an anonymous GET answered 200 with HTML, no cookie set, no
 * caching chosen): the front door may answer the same URL with the same cookies from it for a second,
 * with a fresh CSP nonce (scripts/page-cache.mjs), and removes the mark. Anything personal never has it.
 */
export const ANONYMOUS_PAGE_HEADER = "X-Studio-Anonymous-Page";

/**
 * Resolves the session cookie once per request (refreshing an expired access token) and writes
 * the refreshed cookie on the way out, unless the route set the session cookie itself (login, logout).
 *
 * Pages (everything outside /api, which says its own caching) answered for a signed-in person, for a
 * screen that needs sign-in (its redirect to /login included) or that set a cookie are
 * `Cache-Control: private, no-store` unless the route chose a Cache-Control itself (owner-only files).
 * Anonymous pages of nobody in particular (/, /login, /register) stay cacheable.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context, url }, next) => {
  const { session, setCookie } = await resolveSession(request);
  context.set(requestSessionContext, session);
  context.set(requestUrlContext, url);
  const response = await next();
  const personal =
    session.user !== null || setCookie !== null || context.get(signInRequiredContext) || response.headers.has("Set-Cookie");
  const addCacheControl =
    personal && !response.headers.has("Cache-Control") && !url.pathname.startsWith("/api/");
  // The route's own session cookie (login, logout) wins over the refreshed one.
  const cookie =
    setCookie !== null && !response.headers.getSetCookie().some((set) => set.startsWith(`${SESSION_COOKIE}=`)) ? setCookie : null;
  const anonymousPage =
    !personal &&
    request.method === "GET" &&
    response.status === 200 &&
    !response.headers.has("Cache-Control") &&
    /^text\/html/i.test(response.headers.get("Content-Type") ?? "");
  if (!addCacheControl && cookie === null && !anonymousPage) return response;
  return withHeaders(response, (headers) => {
    if (cookie !== null) headers.append("Set-Cookie", cookie);
    if (addCacheControl) headers.set("Cache-Control", PERSONAL_CACHE_CONTROL);
    if (anonymousPage) headers.set(ANONYMOUS_PAGE_HEADER, "1");
  });
};
