import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { baseUrl, newUser, PASSWORD } from "../support/api";
import { formLogin } from "../support/client.mjs";

/** Signs in through the login form on `url`; answers the session cookie's Set-Cookie. */
async function signInCookies(url: string, email: string) {
  const login = await formLogin(url, email);
  expect(login.status).toBe(302);
  return login.headers.getSetCookie();
}

const named = (cookies: string[], name: string) => cookies.find((cookie) => cookie.startsWith(`${name}=`));

describe("cookies take the __Host- prefix when they are Secure (the test servers run as production)", () => {
  it("the session, toast and preferences cookies: __Host-, Secure, Path=/, no Domain", async () => {
    const { email } = await newUser("host");
    const session = named(await signInCookies(baseUrl(), email), "__Host-session")!;
    const toast = named(
      (await fetch(`${baseUrl()}/projects`, { redirect: "manual" })).headers.getSetCookie(),
      "__Host-toast-session",
    )!;
    const prefs = named(
      (
        await fetch(`${baseUrl()}/preferences`, {
          method: "POST",
          body: new URLSearchParams({ intent: "theme", theme: "light", redirectTo: "/" }),
          redirect: "manual",
        })
      ).headers.getSetCookie(),
      "__Host-studio_prefs",
    )!;
    for (const cookie of [session, toast, prefs]) {
      expect(cookie).toMatch(/; Path=\/(;|$)/);
      expect(cookie).toMatch(/; Secure(;|$)/);
      expect(cookie).toMatch(/; HttpOnly(;|$)/);
      expect(cookie).not.toMatch(/Domain=/i);
    }
  });

  it("a session cookie under the old name (__session) is ignored and expired, never promoted to __Host-session", async () => {
    const { email } = await newUser("legacy");
    const value = named(await signInCookies(baseUrl(), email), "__Host-session")!
      .split(";")[0]
      .slice("__Host-session=".length);
    const expiredOld = /^__session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/;

    // A valid, signed value under the old name (planted by a sibling subdomain or over plain HTTP) signs nobody in.
    const planted = await fetch(`${baseUrl()}/api/auth/me`, { headers: { Cookie: `theme=x; __session=${value}` } });
    expect(planted.status).toBe(401);
    const set = planted.headers.getSetCookie();
    expect(named(set, "__Host-session")).toBeUndefined();
    expect(set).toEqual([expect.stringMatching(expiredOld)]);
    // A page neither: the dashboard sends the browser to sign in, and expires the old cookie.
    const page = await fetch(`${baseUrl()}/dashboard`, {
      headers: { Cookie: `__session=${value}` },
      redirect: "manual",
    });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toMatch(/^\/login/);
    expect(page.headers.getSetCookie()).toEqual([expect.stringMatching(expiredOld)]);

    // Beside the new cookie the new one counts (whoever's the old one is), and the old one is expired.
    const { email: other } = await newUser("planter");
    const planterValue = named(await signInCookies(baseUrl(), other), "__Host-session")!
      .split(";")[0]
      .slice("__Host-session=".length);
    const both = await fetch(`${baseUrl()}/api/auth/me`, {
      headers: { Cookie: `__session=${planterValue}; __Host-session=${value}` },
    });
    expect(both.status).toBe(200);
    expect((await both.json()).email).toBe(email);
    expect(both.headers.getSetCookie()).toEqual([expect.stringMatching(expiredOld)]);

    // After logout the old name brings nobody back.
    const logout = await fetch(`${baseUrl()}/api/auth/logout`, {
      method: "POST",
      headers: { Cookie: `__Host-session=${value}` },
    });
    expect(logout.status).toBeLessThan(400);
    const afterLogout = await fetch(`${baseUrl()}/api/auth/me`, { headers: { Cookie: `__session=${planterValue}` } });
    expect(afterLogout.status).toBe(401);
    expect(named(afterLogout.headers.getSetCookie(), "__Host-session")).toBeUndefined();
  });

  it("the preferences and toast cookies under their old names (studio_prefs, toast-session) are ignored and expired", async () => {
    const prefs = await fetch(`${baseUrl()}/preferences`, {
      method: "POST",
      body: new URLSearchParams({ intent: "theme", theme: "light", redirectTo: "/" }),
      redirect: "manual",
    });
    const prefsValue = named(prefs.headers.getSetCookie(), "__Host-studio_prefs")!
      .split(";")[0]
      .slice("__Host-studio_prefs=".length);
    const toast = await fetch(`${baseUrl()}/projects`, { redirect: "manual" });
    const toastValue = named(toast.headers.getSetCookie(), "__Host-toast-session")!
      .split(";")[0]
      .slice("__Host-toast-session=".length);

    // The same values under the new names take effect (the test's own control).
    const current = await fetch(`${baseUrl()}/login`, {
      headers: { Cookie: `__Host-studio_prefs=${prefsValue}; __Host-toast-session=${toastValue}` },
    });
    const currentHtml = await current.text();
    expect(currentHtml).toContain('data-theme="light"');
    expect(named(current.headers.getSetCookie(), "__Host-toast-session")).toMatch(/Expires=Thu, 01 Jan 1970/);

    const page = await fetch(`${baseUrl()}/login`, {
      headers: { Cookie: `studio_prefs=${prefsValue}; toast-session=${toastValue}` },
    });
    const html = await page.text();
    expect(html).not.toContain('data-theme="light"');
    expect(html).toContain('data-theme="dark"');
    const set = page.headers.getSetCookie();
    expect(set.filter((cookie) => cookie.startsWith("__Host-"))).toEqual([]);
    expect(named(set, "studio_prefs")).toMatch(
      /^studio_prefs=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/,
    );
    expect(named(set, "toast-session")).toMatch(
      /^toast-session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/,
    );
  });
});

describe("with COOKIE_SECURE=false (plain HTTP) the names stay as they were", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ COOKIE_SECURE: "false" });
  });
  afterAll(() => server?.stop());

  it("__session, not Secure", async () => {
    const email = `plain-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const registered = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(registered.status).toBe(201);
    const cookies = await signInCookies(server.url, email);
    const session = named(cookies, "__session")!;
    expect(session).toBeDefined();
    expect(session).not.toMatch(/Secure/);
    expect(cookies.some((cookie) => cookie.startsWith("__Host-"))).toBe(false);
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { Cookie: session.split(";")[0] } });
    expect(me.status).toBe(200);
    expect(me.headers.getSetCookie()).toEqual([]);
    // Plain HTTP has no other name: the preferences and toast cookies keep theirs, unexpired.
    const prefs = await fetch(`${server.url}/preferences`, {
      method: "POST",
      body: new URLSearchParams({ intent: "theme", theme: "light", redirectTo: "/" }),
      redirect: "manual",
    });
    const stored = named(prefs.headers.getSetCookie(), "studio_prefs")!;
    const page = await fetch(`${server.url}/login`, { headers: { Cookie: stored.split(";")[0] } });
    expect(await page.text()).toContain('data-theme="light"');
    expect(page.headers.getSetCookie()).toEqual([]);
  });
});
