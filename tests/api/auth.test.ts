import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { api, baseUrl, newUser, PASSWORD, uniqueEmail } from "../support/api";
import { formLogin } from "../support/client.mjs";

describe("POST /api/auth/register", () => {
  it("creates an account: 201 {id, email} with the email normalised", async () => {
    const email = uniqueEmail("Reg");
    const { status, body } = await api("/api/auth/register", {
      json: { email: `  ${email.toUpperCase()} `, password: PASSWORD },
    });
    expect(status).toBe(201);
    expect(body).toEqual({ id: expect.any(String), email: email.toLowerCase() });
    expect(body).not.toHaveProperty("password_hash");
  });

  it("a taken email -> 409 Email already exists", async () => {
    const email = uniqueEmail();
    await api("/api/auth/register", { json: { email, password: PASSWORD } });
    expect(await api("/api/auth/register", { json: { email, password: PASSWORD } })).toMatchObject({
      status: 409,
      body: { detail: "Email already exists" },
    });
  });

  it.each([
    [{ email: "not-an-email", password: PASSWORD }, "Enter a valid email address"],
    [{ email: uniqueEmail(), password: "short" }, "Password must be at least 8 characters"],
    [{ email: uniqueEmail(), password: "x".repeat(300) }, "Password must be at most 256 characters"],
    [{ password: PASSWORD }, "Email is required"],
    [{ email: uniqueEmail() }, "Password is required"],
    [[1, 2], expect.any(String)],
  ])("invalid input %j -> 422 with detail", async (json, detail) => {
    const { status, body } = await api("/api/auth/register", { json });
    expect(status).toBe(422);
    expect(body).toEqual({ detail });
  });

  it("a body that is not JSON -> 400, never 500", async () => {
    const { status, body } = await api("/api/auth/register", {
      raw: "{email:",
      headers: { "Content-Type": "application/json" },
    });
    expect(status).toBe(400);
    expect(body.detail).toBe("Request body must be valid JSON");
  });
});

describe("POST /api/auth/login", () => {
  it("answers a bearer token pair", async () => {
    const { email } = await newUser();
    const { status, body, headers } = await api("/api/auth/login", { json: { email, password: PASSWORD } });
    expect(status).toBe(200);
    expect(body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: "bearer" });
    expect(headers.get("cache-control")).toBe("no-store");
  });

  it("accepts an OAuth2 password form with username", async () => {
    const { email } = await newUser();
    const { status, body } = await api("/api/auth/login", {
      raw: new URLSearchParams({ username: email, password: PASSWORD }),
    });
    expect(status).toBe(200);
    expect(body.token_type).toBe("bearer");
  });

  it("bad credentials -> 401, unknown email too", async () => {
    const { email } = await newUser();
    expect((await api("/api/auth/login", { json: { email, password: "wrong password" } })).status).toBe(401);
    expect((await api("/api/auth/login", { json: { email: uniqueEmail(), password: PASSWORD } })).status).toBe(401);
    expect((await api("/api/auth/login", { json: { email } })).status).toBe(422);
  });

  it("10 failures in 15 minutes -> 429 for that account, even with the right password", async () => {
    const { email } = await newUser("limit");
    for (let i = 0; i < 10; i++) {
      const failed = await api("/api/auth/login", {
        json: { email, password: "wrong password" },
        headers: { "X-Forwarded-For": `203.0.113.${i}` },
      });
      expect(failed.status).toBe(401);
    }
    const blocked = await api("/api/auth/login", {
      json: { email, password: PASSWORD },
      headers: { "X-Forwarded-For": "203.0.113.200" },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Too many failed login attempts\. Try again in \d+ minutes?\.$/);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("30 concurrent wrong passwords for one account: at most 10 are checked (401), the rest 429", async () => {
    const { email } = await newUser("burst");
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api("/api/auth/login", {
          json: { email, password: "wrong password" },
          headers: { "X-Forwarded-For": `203.0.114.${i}` },
        }).then((r) => r.status),
      ),
    );
    const checked = statuses.filter((status) => status === 401).length;
    expect(checked).toBeLessThanOrEqual(10);
    // The rest refused before any check: 429, or 503 when the machine hashes so slowly that the bounded
    // hash queue (about 1.5 s of work) has no room for ten.
    expect(statuses.filter((status) => status === 429 || status === 503)).toHaveLength(30 - checked);
    // Whatever got through, the account is locked now: 10 more guesses cannot follow.
    const more = await Promise.all(
      Array.from({ length: 10 - checked + 1 }, () =>
        api("/api/auth/login", {
          json: { email, password: "wrong password" },
          headers: { "X-Forwarded-For": "203.0.114.200" },
        }).then((r) => r.status),
      ),
    );
    expect(checked + more.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect((await api("/api/auth/login", { json: { email, password: PASSWORD } })).status).toBe(429);
  });

  it("a login form post never redirects off-site, whatever redirectTo holds", async () => {
    const { email } = await newUser();
    for (const redirectTo of [
      "/\t/evil.example/",
      "/\n/evil.example/",
      "//evil.example/",
      "/\\evil.example/",
      "https://evil.example/",
    ]) {
      const response = await fetch(`${baseUrl()}/login`, {
        method: "POST",
        body: new URLSearchParams({ email, password: PASSWORD, redirectTo }),
        redirect: "manual",
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/dashboard");
    }
  });

  // The per-address budget (429 before any hash, the right password too, once an address is over it)
  // is tested with a small budget on a server of its own: tests/api/auth-flood.test.ts.
});

describe("POST /api/auth/refresh", () => {
  it("rotates: a new pair; the spent token presented again within the grace window answers with the same pair", async () => {
    const { refreshToken } = await newUser();
    const first = await api("/api/auth/refresh", { json: { refresh_token: refreshToken } });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(refreshToken);
    expect(first.body.token_type).toBe("bearer");

    // Reuse after the window is refused and revokes the family: tests/api/refresh-grace.test.ts.
    const replay = await api("/api/auth/refresh", { json: { refresh_token: refreshToken } });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    const descendant = await api("/api/auth/refresh", { json: { refresh_token: first.body.refresh_token } });
    expect(descendant.status).toBe(200);
  });

  it("no token at all -> 401 Missing refresh token", async () => {
    expect(await api("/api/auth/refresh", { json: {} })).toMatchObject({
      status: 401,
      body: { detail: "Missing refresh token" },
    });
    expect(await api("/api/auth/refresh", { method: "POST" })).toMatchObject({
      status: 401,
      body: { detail: "Missing refresh token" },
    });
  });

  it("an unknown token -> 401", async () => {
    expect((await api("/api/auth/refresh", { json: { refresh_token: "nope" } })).status).toBe(401);
  });

  it("with no body token, rotates the session cookie's pair and sets the new cookie", async () => {
    const { email } = await newUser();
    const login = await formLogin(baseUrl(), email);
    expect(login.status).toBe(302);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("__Host-session="))!
      .split(";")[0];
    const refreshed = await api("/api/auth/refresh", { json: {}, headers: { Cookie: cookie } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).not.toHaveProperty("refresh_token");
    const newCookie = refreshed.headers.getSetCookie().find((c) => c.startsWith("__Host-session="))!;
    expect(newCookie).toContain("HttpOnly");
    expect(newCookie).toContain("SameSite=Lax");
    expect(newCookie.split(";")[0]).not.toBe(cookie);
  });
});

describe("protected API and logout", () => {
  it("a bearer token is required; a bad one is refused", async () => {
    const { token, id, email } = await newUser();
    expect(await api("/api/auth/me", { token })).toMatchObject({ status: 200, body: { id, email } });
    expect(await api("/api/auth/me", { token: "garbage" })).toMatchObject({
      status: 401,
      body: { detail: "Invalid or expired access token" },
    });
    expect(await api("/api/auth/me")).toMatchObject({ status: 401, body: { detail: "Not authenticated" } });
  });

  it("logout revokes the refresh token", async () => {
    const { refreshToken } = await newUser();
    expect((await api("/api/auth/logout", { json: { refresh_token: refreshToken } })).status).toBe(200);
    expect((await api("/api/auth/refresh", { json: { refresh_token: refreshToken } })).status).toBe(401);
  });
});

describe("registration rate limit (own server with REGISTER_MAX_PER_ADDRESS=3)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ REGISTER_MAX_PER_ADDRESS: "3" });
  });
  afterAll(() => server?.stop());

  const register = (address: string | null, email = uniqueEmail("throttle")) =>
    fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(address ? { "X-Forwarded-For": address } : {}) },
      body: JSON.stringify({ email, password: PASSWORD }),
    });

  it("the API answers 429 {detail} with Retry-After once an address has registered 3 times in an hour", async () => {
    for (let i = 0; i < 3; i++) expect((await register("192.0.2.10")).status).toBe(201);
    const refused = await register("192.0.2.10");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      detail: "Too many registrations from your address. Try again in 60 minutes.",
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
    // Other addresses are unaffected.
    expect((await register("192.0.2.11")).status).toBe(201);
  });

  it("concurrent registrations from one address cannot get past the limit", async () => {
    const statuses = await Promise.all(Array.from({ length: 8 }, () => register("192.0.2.20").then((r) => r.status)));
    const created = statuses.filter((status) => status === 201).length;
    expect(created).toBeLessThanOrEqual(3);
    // The others are refused by the count (429) or, on a loaded machine where the earlier ones' hashes
    // are still running, by the bounded hash queue (503, not counted).
    expect(statuses.filter((status) => status !== 201 && status !== 429 && status !== 503)).toEqual([]);
    // One at a time (nothing else hashing) the address gets the rest of its 3, and then the count refuses it.
    for (let i = created; i < 3; i++) expect((await register("192.0.2.20")).status).toBe(201);
    expect((await register("192.0.2.20")).status).toBe(429);
  });

  it("the /register screen shares the allowance and says why", async () => {
    for (let i = 0; i < 3; i++) expect((await register("192.0.2.30")).status).toBe(201);
    const email = uniqueEmail("screen");
    const response = await fetch(`${server.url}/register`, {
      method: "POST",
      headers: { "X-Forwarded-For": "192.0.2.30" },
      body: new URLSearchParams({ email, password: PASSWORD, confirmPassword: PASSWORD }),
    });
    expect(response.status).toBe(429);
    expect(await response.text()).toContain("❌ Registration failed: Too many registrations from your address.");
  });

  it("invalid input is refused before it counts", async () => {
    for (let i = 0; i < 5; i++) {
      const bad = await fetch(`${server.url}/api/auth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": "192.0.2.40" },
        body: JSON.stringify({ email: "nope", password: PASSWORD }),
      });
      expect(bad.status).toBe(422);
    }
    expect((await register("192.0.2.40")).status).toBe(201);
  });

  it("this machine's own loopback address is not counted", async () => {
    for (let i = 0; i < 5; i++) expect((await register(null)).status).toBe(201);
  });
});
