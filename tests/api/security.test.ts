import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { api, baseUrl, newUser, PASSWORD } from "../support/api";
import { formLogin as postLoginForm } from "../support/client.mjs";

/** Signs in through the login form; answers the session cookie ("__Host-session=..."). */
async function formLogin(email: string, base = baseUrl()) {
  const response = await postLoginForm(base, email, { headers: { Origin: base } });
  expect(response.status).toBe(302);
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith("__Host-session="))!
    .split(";")[0];
}

describe("a redirectTo outside ASCII is encoded, never a 500", () => {
  it("the login form redirects to the percent-encoded path", async () => {
    const { email } = await newUser("unicode");
    const response = await fetch(`${baseUrl()}/login`, {
      method: "POST",
      headers: { Origin: baseUrl() },
      body: new URLSearchParams({ email, password: PASSWORD, redirectTo: "/日本" }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/%E6%97%A5%E6%9C%AC");
  });

  it("the login screen's query string and the content and preferences forms too", async () => {
    const page = await fetch(`${baseUrl()}/login?${new URLSearchParams({ redirectTo: "/content/日本?q=café" })}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('value="/content/%E6%97%A5%E6%9C%AC?q=caf%C3%A9"');

    const { email, token } = await newUser("unicode-forms");
    const cookie = await formLogin(email);
    const created = await api("/api/content", { json: { title: "Pinned", body: "x" }, token });
    expect(created.status).toBe(201);
    const pin = await fetch(`${baseUrl()}/content/${created.body.id}`, {
      method: "POST",
      headers: { Origin: baseUrl(), Cookie: cookie },
      body: new URLSearchParams({ intent: "pin", pinned: "true", redirectTo: "/dashboard?q=日本" }),
      redirect: "manual",
    });
    expect(pin.status).toBe(302);
    expect(pin.headers.get("location")).toBe("/dashboard?q=%E6%97%A5%E6%9C%AC");

    const theme = await fetch(`${baseUrl()}/preferences`, {
      method: "POST",
      headers: { Origin: baseUrl(), Cookie: cookie },
      body: new URLSearchParams({ intent: "theme", theme: "dark", redirectTo: "/ü" }),
      redirect: "manual",
    });
    expect(theme.status).toBe(302);
    expect(theme.headers.get("location")).toBe("/%C3%BC");
  });
});

describe("logout ends the session on the next request", () => {
  it("the bearer access token stops working at once, for reads and writes", async () => {
    const { token, refreshToken } = await newUser("logout-bearer");
    expect((await api("/api/auth/me", { token })).status).toBe(200);
    expect((await api("/api/auth/logout", { json: { refresh_token: refreshToken } })).status).toBe(200);
    expect(await api("/api/auth/me", { token })).toMatchObject({
      status: 401,
      body: { detail: "Invalid or expired access token" },
    });
    expect((await api("/api/content", { json: { title: "After logout", body: "x" }, token })).status).toBe(401);
  });

  it("a logout with only the bearer token ends its family: the access token and its refresh token stop working", async () => {
    const { token, refreshToken } = await newUser("logout-bearer-only");
    const other = await newUser("logout-bearer-only-other");
    expect((await api("/api/auth/logout", { method: "POST", token, json: {} })).status).toBe(200);
    expect(await api("/api/auth/me", { token })).toMatchObject({
      status: 401,
      body: { detail: "Invalid or expired access token" },
    });
    expect((await api("/api/auth/refresh", { json: { refresh_token: refreshToken } })).status).toBe(401);
    // Nobody else's session is touched.
    expect((await api("/api/auth/me", { token: other.token })).status).toBe(200);
    // A bearer token that is not one of ours revokes nothing and is still a plain logout.
    expect((await api("/api/auth/logout", { method: "POST", token: "not-a-token", json: {} })).status).toBe(200);
    expect((await api("/api/auth/refresh", { json: { refresh_token: other.refreshToken } })).status).toBe(200);
  });

  it("who someone is, and their JSON, is never stored by a cache (Cache-Control: no-store)", async () => {
    const { token } = await newUser("no-store");
    for (const path of ["/api/auth/me", "/api/content", "/api/library/usage", "/api/voice/list-files"]) {
      const answer = await fetch(`${baseUrl()}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get("cache-control"), path).toBe("no-store");
    }
    const refused = await fetch(`${baseUrl()}/api/auth/me`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("cache-control")).toBe("no-store");
  });

  // A reused refresh token (after the 10 s grace window) ends the family's access tokens too: that
  // check waits the window out, once, in tests/api/refresh-grace.test.ts.
  it("a spent refresh token replayed within the grace window forks nothing: the same pair, and a logout ends it", async () => {
    const { refreshToken } = await newUser("reuse");
    const rotated = await api("/api/auth/refresh", { json: { refresh_token: refreshToken } });
    expect(rotated.status).toBe(200);
    const replay = await api("/api/auth/refresh", { json: { refresh_token: refreshToken } });
    expect(replay.body).toEqual(rotated.body);
    expect((await api("/api/auth/logout", { json: { refresh_token: rotated.body.refresh_token } })).status).toBe(200);
    expect((await api("/api/auth/refresh", { json: { refresh_token: refreshToken } })).status).toBe(401);
    expect((await api("/api/auth/me", { token: rotated.body.access_token })).status).toBe(401);
  });

  it("an old copy of the session cookie no longer opens /dashboard after logout", async () => {
    const { email } = await newUser("logout-cookie");
    const cookie = await formLogin(email);
    expect((await fetch(`${baseUrl()}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(
      200,
    );
    const logout = await fetch(`${baseUrl()}/logout`, {
      method: "POST",
      headers: { Origin: baseUrl(), Cookie: cookie },
      redirect: "manual",
    });
    expect(logout.status).toBe(302);
    const after = await fetch(`${baseUrl()}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toMatch(/^\/login/);
    expect((await api("/api/auth/me", { headers: { Cookie: cookie } })).status).toBe(401);
  });
});

describe("cross-site writes without Origin", () => {
  it("Sec-Fetch-Site: cross-site or same-site without Origin is refused (403)", async () => {
    const { email } = await newUser("fetch-site");
    const cookie = await formLogin(email);
    for (const site of ["cross-site", "same-site"]) {
      const form = await fetch(`${baseUrl()}/feedback`, {
        method: "POST",
        headers: { Cookie: cookie, "Sec-Fetch-Site": site },
        body: new URLSearchParams({ name: "Mallory", email: "m@example.com", message: "forged" }),
        redirect: "manual",
      });
      expect(form.status).toBe(403);
      const json = await api("/api/feedback", {
        json: { name: "Mallory", email: "m@example.com", message: "forged" },
        headers: { Cookie: cookie, "Sec-Fetch-Site": site },
      });
      expect(json).toMatchObject({ status: 403, body: { detail: "Cross-origin request refused" } });
    }
    const own = await api("/api/feedback", {
      json: { name: "Me", email: "me@example.com", message: "hello" },
      headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
    });
    expect(own.status).toBeLessThan(400);
  });
});

describe("X-Forwarded-Host without TRUST_PROXY (own server)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: "false" });
  });
  afterAll(() => server?.stop());

  it("does not make another site's Origin look like this server", async () => {
    const refused = await fetch(`${server.url}/api/feedback`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: "https://evil.example",
        "X-Forwarded-Host": "evil.example",
      },
      body: JSON.stringify({ name: "Mallory", email: "m@example.com", message: "forged" }),
    });
    expect(refused.status).toBe(403);
    const own = await fetch(`${server.url}/api/feedback`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ name: "Me", email: "me@example.com", message: "hello" }),
    });
    expect(own.status).toBeLessThan(400);
  });
});
