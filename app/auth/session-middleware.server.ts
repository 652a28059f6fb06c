import type { MiddlewareFunction } from "react-router";
import { withHeaders } from "~/lib/http/security.server";
import { dropOldCookies } from "~/lib/screens/signed-cookie.server";
import {
  requestSessionContext,
  requestUrlContext,
  resolveSession,
  SESSION_COOKIE,
  signInRequiredContext,
} from "./session.server";

/** What a personal page answers with: no shared cache and no back/forward cache may keep it. */
export const PERSONAL_CACHE_CONTROL = "private, no-store";

/**
 * Resolves the session cookie once per request (refreshing an expired access token) and writes
 * the refreshed cookie on the way out, unless the route set the session cookie itself (login, logout).
 *
 * The API's JSON answers that name no caching of their own are `Cache-Control: no-store`. Pages
 * (everything outside /api) answered for a signed-in person, for a
 * screen that needs sign-in (its redirect to /login included) or that set a cookie are
 * `Cache-Control: private, no-store` unless the route chose a Cache-Control itself (owner-only files).
 * Anonymous pages of nobody in particular (/, /login, /register) are left as they are.
 *
 * First of all, cookies the browser still holds under an old name (`__session` before `__Host-session`)
 * are dropped from the request unread and expired by this answer (dropOldCookies): never promoted.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context, url }, next) => {
  const old = dropOldCookies(request);
  const { session, setCookie } = await resolveSession(request);
  context.set(requestSessionContext, session);
  context.set(requestUrlContext, url);
  const response = await next();
  const personal =
    session.user !== null ||
    setCookie !== null ||
    old !== null ||
    context.get(signInRequiredContext) ||
    response.headers.has("Set-Cookie");
  const isApi = url.pathname.startsWith("/api/");
  const addCacheControl = personal && !response.headers.has("Cache-Control") && !isApi;
  // The API's JSON (who someone is, their items, their usage) is never stored by any cache.
  const apiJson =
    isApi &&
    !response.headers.has("Cache-Control") &&
    /^application\/json/i.test(response.headers.get("Content-Type") ?? "");
  // The route's own session cookie (login, logout) wins over the refreshed one.
  const cookie =
    setCookie !== null && !response.headers.getSetCookie().some((set) => set.startsWith(`${SESSION_COOKIE}=`))
      ? setCookie
      : null;
  if (!addCacheControl && !apiJson && cookie === null && old === null) return response;
  return withHeaders(response, (headers) => {
    if (cookie !== null) headers.append("Set-Cookie", cookie);
    if (old !== null) for (const expired of old.expiredCookies()) headers.append("Set-Cookie", expired);
    if (addCacheControl) headers.set("Cache-Control", PERSONAL_CACHE_CONTROL);
    if (apiJson) headers.set("Cache-Control", "no-store");
  });
};
