import { createContext, createCookieSessionStorage } from "react-router";
import { createSignedCookie, hostCookieName } from "~/lib/screens/signed-cookie.server";
import type { User } from "~/models/accounts/user.server";
import { revokeRefreshToken, rotateRefreshToken, type TokenPair } from "~/models/accounts/token-pair.server";
import { sessionOfAccessToken } from "~/models/accounts/access-token.server";
import { env } from "~/lib/settings/env.server";
import { keys } from "~/lib/settings/keys.server";

/**
 * The browser's session cookie carries the API token pair (HttpOnly, so page scripts never see a
 * token). The server maps it to the user on every request and refreshes the pair transparently
 * when the access token has expired (see sessionMiddleware in root.tsx). The access token is checked
 * against its family in the database on every request, so a logout (or a revoked family) ends every
 * copy of the cookie at once, on every instance.
 */
interface SessionData {
  accessToken: string;
  refreshToken: string;
}

/**
 * `__Host-session` when cookies are Secure (COOKIE_SECURE, on in production), else `__session`. With
 * Secure cookies, a `__session` the browser still holds is never read, only expired (dropOldCookies in
 * sessionMiddleware): anyone could have planted it, and its signature does not cover its name.
 */
export const SESSION_COOKIE = hostCookieName("__session", env.cookieSecure);

/** React Router's cookie format and secret rotation, with the HMAC key prepared once (signed-cookie.server.ts). */
export const sessionStorage = createCookieSessionStorage<SessionData>({
  cookie: createSignedCookie(SESSION_COOKIE, {
    renamedFrom: "__session",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: env.cookieSecure,
    secrets: keys.cookieSecrets,
    maxAge: env.refreshTokenDays * 86_400,
  }),
});

export interface RequestSession {
  user: User | null;
  refreshToken: string | null;
  /** The signed-in session (its token family, app/models/accounts/sessions.server.ts), for the account screen. */
  sessionId?: string | null;
}

/** Set by the root middleware for every request: who is signed in through the cookie. */
export const requestSessionContext = createContext<RequestSession>({ user: null, refreshToken: null });

/**
 * Set by requireUser and its kin when the screen answering this request needs sign-in: its answer
 * (the page, or the redirect to /login) is private even when nobody is signed in (sessionMiddleware).
 */
export const signInRequiredContext = createContext<boolean>(false);

/**
 * The URL React Router routed the request by (no `.data` suffix, no `?_routes`): loaders get the raw
 * request (future.v8_passThroughRequests), so "where the person was going" is read from here.
 */
export const requestUrlContext = createContext<URL | null>(null);

/** Resolves the cookie to a user; returns the Set-Cookie header to send when the cookie changed. */
export async function resolveSession(request: Request): Promise<{ session: RequestSession; setCookie: string | null }> {
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes(`${SESSION_COOKIE}=`)) return { session: { user: null, refreshToken: null }, setCookie: null };
  const session = await sessionStorage.getSession(cookie);
  const accessToken = session.get("accessToken");
  const refreshToken = session.get("refreshToken");
  if (!accessToken && !refreshToken) return { session: { user: null, refreshToken: null }, setCookie: null };

  const signedIn = accessToken ? await sessionOfAccessToken(accessToken) : null;
  let user = signedIn?.user ?? null;
  let sessionId = signedIn?.sessionId ?? null;
  let setCookie: string | null = null;
  let currentRefresh = refreshToken ?? null;
  if (!user && refreshToken) {
    // A page load sends several requests with the same expired cookie, possibly to several instances:
    // the first rotates, the others get the same pair from the database (the grace window of rotation).
    const rotation = await rotateRefreshToken(refreshToken);
    // A pair answered within the grace window may be a few seconds old: it counts only while the family
    // is still live (a logout in between ends it), which verifying its access token checks.
    const rotated = rotation.ok ? await sessionOfAccessToken(rotation.pair.access_token) : null;
    if (rotation.ok && rotated?.user.id === rotation.userId) {
      user = rotated.user;
      sessionId = rotated.sessionId;
      currentRefresh = rotation.pair.refresh_token;
      session.set("accessToken", rotation.pair.access_token);
      session.set("refreshToken", rotation.pair.refresh_token);
      setCookie = await sessionStorage.commitSession(session);
    }
  }
  if (!user) {
    return { session: { user: null, refreshToken: null }, setCookie: await sessionStorage.destroySession(session) };
  }
  return { session: { user, refreshToken: currentRefresh, sessionId }, setCookie };
}

/** Set-Cookie for a freshly issued pair (login, API refresh through the cookie). */
export async function commitTokenPair(request: Request, pair: TokenPair): Promise<string> {
  const session = await sessionStorage.getSession(request.headers.get("Cookie"));
  session.set("accessToken", pair.access_token);
  session.set("refreshToken", pair.refresh_token);
  return sessionStorage.commitSession(session);
}

/** Logout: revoke the pair's family and clear the cookie. */
export async function endSession(request: Request): Promise<string> {
  const session = await sessionStorage.getSession(request.headers.get("Cookie"));
  const refreshToken = session.get("refreshToken");
  if (refreshToken) await revokeRefreshToken(refreshToken);
  return sessionStorage.destroySession(session);
}

export async function refreshTokenFromCookie(request: Request): Promise<string | null> {
  const session = await sessionStorage.getSession(request.headers.get("Cookie"));
  return session.get("refreshToken") ?? null;
}
