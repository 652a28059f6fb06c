import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { baseUrl, newUser, PASSWORD } from "./client";

/** Signs in through the login form on `url`; answers the session cookie's Set-Cookie. */
async function formLogin(url: string, email: string) {
  const login = await fetch(`${url}/login`, { method: "POST", body: new URLSearchParams({ email, password: PASSWORD }), redirect: "manual" });
  expect(login.status).toBe(302);
  return login.headers.getSetCookie();
}

const named = (cookies: string[], name: string) => cookies.find((cookie) => cookie.startsWith(`${name}=`));

describe("cookies take the __Host- prefix when they are Secure (the test servers run as production)", () => {
  it("the session, toast and preferences cookies: __Host-, Secure, Path=/, no Domain", async () => {
    const { email } = await newUser("host");
    const session = named(await formLogin(baseUrl(), email), "__Host-session")!;
    const toast = named((await fetch(`${baseUrl()}/projects`, { redirect: "manual" })).headers.getSetCookie(), "__Host-toast-session")!;
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

  it("a session cookie under the old name (__session) signs the person in once and is replaced by __Host-session", async () => {
    const { email } = await newUser("legacy");
    const value = named(await formLogin(baseUrl(), email), "__Host-session")!.split(";")[0].slice("__Host-session=".length);

    const upgraded = await fetch(`${baseUrl()}/api/auth/me`, { headers: { Cookie: `theme=x; __session=${value}` } });
    expect(upgraded.status).toBe(200);
    expect((await upgraded.json()).email).toBe(email);
    const set = upgraded.headers.getSetCookie();
    const moved = named(set, "__Host-session")!;
    expect(moved.split(";")[0]).toBe(`__Host-session=${value}`);
    expect(moved).toMatch(/; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(named(set, "__session")).toMatch(/^__session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/);

    // The browser now sends only the new cookie: signed in, nothing more to move.
    const after = await fetch(`${baseUrl()}/api/auth/me`, { headers: { Cookie: `__Host-session=${value}` } });
    expect(after.status).toBe(200);
    expect(after.headers.getSetCookie()).toEqual([]);
    // A page too: the dashboard opens with the old cookie, and moves it.
    const page = await fetch(`${baseUrl()}/dashboard`, { headers: { Cookie: `__session=${value}` }, redirect: "manual" });
    expect(page.status).toBe(200);
    expect(named(page.headers.getSetCookie(), "__Host-session")).toBeDefined();
    // When the browser holds both, the new one counts and the old one is only expired.
    const both = await fetch(`${baseUrl()}/api/auth/me`, { headers: { Cookie: `__session=garbage; __Host-session=${value}` } });
    expect(both.status).toBe(200);
    expect(both.headers.getSetCookie()).toEqual([expect.stringMatching(/^__session=; .*Expires=Thu, 01 Jan 1970/)]);
  });

  it("a preferences cookie under the old name (studio_prefs) still sets the theme, and is moved", async () => {
    const prefs = await fetch(`${baseUrl()}/preferences`, {
      method: "POST",
      body: new URLSearchParams({ intent: "theme", theme: "light", redirectTo: "/" }),
      redirect: "manual",
    });
    const value = named(prefs.headers.getSetCookie(), "__Host-studio_prefs")!.split(";")[0].slice("__Host-studio_prefs=".length);
    const page = await fetch(`${baseUrl()}/login`, { headers: { Cookie: `studio_prefs=${value}` } });
    expect(await page.text()).toContain('data-theme="light"');
    const set = page.headers.getSetCookie();
    expect(named(set, "__Host-studio_prefs")!.split(";")[0]).toBe(`__Host-studio_prefs=${value}`);
    expect(named(set, "studio_prefs")).toMatch(/Expires=Thu, 01 Jan 1970/);
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
    const cookies = await formLogin(server.url, email);
    const session = named(cookies, "__session")!;
    expect(session).toBeDefined();
    expect(session).not.toMatch(/Secure/);
    expect(cookies.some((cookie) => cookie.startsWith("__Host-"))).toBe(false);
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { Cookie: session.split(";")[0] } });
    expect(me.status).toBe(200);
    expect(me.headers.getSetCookie()).toEqual([]);
  });
});
