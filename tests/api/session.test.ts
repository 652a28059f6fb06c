import { SignJWT } from "jose";
import { createCookieSessionStorage } from "react-router";
import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser, PASSWORD } from "../support/api";
import { formLogin } from "../support/client.mjs";

// The test server's secret (tests/support/server.ts), so the test can write the cookie a browser would hold.
const SECRET = "test-session-secret-that-is-long-enough-0123456789";
const storage = createCookieSessionStorage({
  cookie: { name: "__Host-session", secrets: [SECRET], path: "/", sameSite: "lax", httpOnly: true, secure: true },
});

async function expiredAccessToken(userId: string) {
  const past = Math.floor(Date.now() / 1000) - 3600;
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuer("creative-ai-studio")
    .setIssuedAt(past - 900)
    .setExpirationTime(past)
    .sign(new TextEncoder().encode(`access-token:${SECRET}`));
}

async function cookieFor(accessToken: string, refreshToken: string) {
  const session = await storage.getSession();
  session.set("accessToken", accessToken);
  session.set("refreshToken", refreshToken);
  return (await storage.commitSession(session)).split(";")[0];
}

describe("the session cookie", () => {
  it("an expired access token is refreshed transparently on a page load", async () => {
    const user = await newUser();
    const cookie = await cookieFor(await expiredAccessToken(user.id), user.refreshToken);
    const response = await fetch(`${baseUrl()}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(response.status).toBe(200);
    const renewed = response.headers.getSetCookie().find((c) => c.startsWith("__Host-session="));
    expect(renewed).toBeDefined();
    // The old refresh token is spent now: within the grace window it answers with the cookie's new pair.
    const renewedSession = await storage.getSession(renewed!.split(";")[0]);
    const replay = await api("/api/auth/refresh", { json: { refresh_token: user.refreshToken } });
    expect(replay.status).toBe(200);
    expect(replay.body.refresh_token).toBe(renewedSession.get("refreshToken"));
    expect(replay.body.refresh_token).not.toBe(user.refreshToken);
  });

  it("several requests at once with one expired cookie all succeed (one rotation)", async () => {
    const user = await newUser();
    const cookie = await cookieFor(await expiredAccessToken(user.id), user.refreshToken);
    const statuses = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${baseUrl()}/api/auth/me`, { headers: { Cookie: cookie } }).then((r) => r.status),
      ),
    );
    expect(statuses).toEqual([200, 200, 200, 200]);
  });

  it("a revoked refresh token ends the session: redirect to /login and the cookie is cleared", async () => {
    const user = await newUser();
    await api("/api/auth/logout", { json: { refresh_token: user.refreshToken } });
    const cookie = await cookieFor(await expiredAccessToken(user.id), user.refreshToken);
    const response = await fetch(`${baseUrl()}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toContain("/login");
    expect(response.headers.getSetCookie().find((c) => c.startsWith("__Host-session="))).toMatch(
      /Expires=Thu, 01 Jan 1970/,
    );
  });

  it("a login form post sets an HttpOnly, SameSite=Lax, Secure (production) session cookie", async () => {
    const { email } = await newUser();
    const response = await fetch(`${baseUrl()}/login`, {
      method: "POST",
      body: new URLSearchParams({ email, password: PASSWORD }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard");
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__Host-session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);
  });

  it("logout revokes the cookie's pair", async () => {
    const { email } = await newUser();
    const login = await formLogin(baseUrl(), email);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("__Host-session="))!
      .split(";")[0];
    const logout = await fetch(`${baseUrl()}/logout`, {
      method: "POST",
      headers: { Cookie: cookie },
      redirect: "manual",
    });
    expect(logout.status).toBe(302);
    expect(logout.headers.get("location")).toBe("/login");
    // The old cookie no longer refreshes.
    expect((await api("/api/auth/refresh", { json: {}, headers: { Cookie: cookie } })).status).toBe(401);
  });
});
