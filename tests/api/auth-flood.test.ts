import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { PASSWORD, uniqueEmail } from "../support/api";

/** JSON to `path` on `server` from `address` (X-Forwarded-For; the test servers trust loopback). */
async function post(server: RunningServer, path: string, json: unknown, address: string) {
  const started = performance.now();
  const response = await fetch(server.url + path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": address },
    body: JSON.stringify(json),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a page
  }
  return { status: response.status, body, headers: response.headers, ms: performance.now() - started };
}

/** A form post to a screen from `address`, as a browser without JavaScript sends it. */
async function postForm(server: RunningServer, path: string, fields: Record<string, string>, address: string) {
  const response = await fetch(server.url + path, {
    method: "POST",
    headers: { "X-Forwarded-For": address },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

const feedback = { name: "Flood", email: "flood@example.com", message: "Hello" };

describe("budgets per client address (own server: 5 login failures, 3 feedback messages an hour)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ LOGIN_MAX_FAILURES_PER_ADDRESS: "5", FEEDBACK_MAX_PER_ADDRESS: "3" });
  });
  afterAll(() => server?.stop());

  it("POST /api/feedback: 429 {detail} with Retry-After after 3 from one address; others and loopback unaffected", async () => {
    for (let i = 0; i < 3; i++) expect((await post(server, "/api/feedback", feedback, "192.0.2.50")).status).toBe(200);
    const refused = await post(server, "/api/feedback", feedback, "192.0.2.50");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: "Too many feedback messages from your address. Try again in 60 minutes." });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
    expect((await post(server, "/api/feedback", feedback, "192.0.2.51")).status).toBe(200);
    // Invalid input is refused (422) before it counts.
    expect((await post(server, "/api/feedback", { ...feedback, email: "nope" }, "192.0.2.52")).status).toBe(422);
    for (let i = 0; i < 3; i++) expect((await post(server, "/api/feedback", feedback, "192.0.2.52")).status).toBe(200);
  });

  it("concurrent feedback from one address cannot get past the limit", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => post(server, "/api/feedback", feedback, "192.0.2.53").then((r) => r.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });

  it("the /feedback screen (no JavaScript) shares the allowance: the failure text in docs/screens.md#error-messages and the reason, 429", async () => {
    for (let i = 0; i < 3; i++) expect((await post(server, "/api/feedback", feedback, "192.0.2.54")).status).toBe(200);
    const refused = await postForm(server, "/feedback", feedback, "192.0.2.54");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.text).toContain(
      "⚠️ Something went wrong. Please try again. Too many feedback messages from your address. Try again in 60 minutes.",
    );
  });

  it("an address over its login failure budget gets 429 before any hash, the right password too; under it, the right password gets in", async () => {
    const address = "198.51.100.7";
    const colleague = uniqueEmail("colleague");
    expect(
      (await post(server, "/api/auth/register", { email: colleague, password: PASSWORD }, "198.51.100.99")).status,
    ).toBe(201);
    const failures = [];
    for (let i = 0; i < 4; i++)
      failures.push(
        await post(server, "/api/auth/login", { email: uniqueEmail("spray"), password: "guess-guess" }, address),
      );
    expect(failures.map((failure) => failure.status)).toEqual([401, 401, 401, 401]);
    // Still under the budget (4 of 5): the right password from that address gets in (and is no failure).
    expect((await post(server, "/api/auth/login", { email: colleague, password: PASSWORD }, address)).status).toBe(200);
    expect(
      (await post(server, "/api/auth/login", { email: uniqueEmail("spray"), password: "guess-guess" }, address)).status,
    ).toBe(401);

    const refused = [];
    for (const [email, password] of [
      [uniqueEmail("spray"), "guess-guess"],
      [colleague, "wrong password"],
      [colleague, PASSWORD],
    ]) {
      refused.push(await post(server, "/api/auth/login", { email, password }, address));
    }
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body.detail).toMatch(/^Too many failed login attempts\. Try again in \d+ minutes?\.$/);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(800);
    }
    // Elsewhere the colleague gets in, and their account is not locked by the sprayer.
    expect(
      (await post(server, "/api/auth/login", { email: colleague, password: PASSWORD }, "198.51.100.8")).status,
    ).toBe(200);
  });

  it("the login screen (no JavaScript) says why: 429 with Retry-After and the message", async () => {
    const address = "198.51.100.20";
    for (let i = 0; i < 5; i++)
      await post(server, "/api/auth/login", { email: uniqueEmail("spray"), password: "guess-guess" }, address);
    const refused = await postForm(
      server,
      "/login",
      { email: uniqueEmail("screen"), password: "guess-guess" },
      address,
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(refused.text).toMatch(/Too many failed login attempts\. Try again in \d+ minutes?\./);
  });
});

describe("the password hash queue is bounded (own server: PASSWORD_HASH_QUEUE_MAX=2)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ PASSWORD_HASH_QUEUE_MAX: "2" });
  });
  afterAll(() => server?.stop());

  it("a burst of logins from many addresses: beyond the queue 503 {detail} with Retry-After, the rest checked (401)", async () => {
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        post(server, "/api/auth/login", { email: uniqueEmail("flood"), password: "guess-guess" }, `203.0.113.${i + 1}`),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 401 || status === 503)).toBe(true);
    const busy = answers.filter((answer) => answer.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.body.detail).toMatch(
        /^The server is busy checking passwords\. Please try again in \d+ seconds?\.$/,
      );
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
  });

  it("registrations share the queue: 503 with Retry-After from the API and the screen", async () => {
    const api = Array.from({ length: 12 }, (_, i) =>
      post(server, "/api/auth/register", { email: uniqueEmail("reg-flood"), password: PASSWORD }, `203.0.114.${i + 1}`),
    );
    const screen = Array.from({ length: 12 }, (_, i) =>
      postForm(
        server,
        "/register",
        { email: uniqueEmail("reg-screen"), password: PASSWORD, confirmPassword: PASSWORD },
        `203.0.115.${i + 1}`,
      ),
    );
    const [apiAnswers, screenAnswers] = await Promise.all([Promise.all(api), Promise.all(screen)]);
    const all = [...apiAnswers.map((answer) => answer.status), ...screenAnswers.map((answer) => answer.status)];
    expect(all.every((status) => status === 201 || status === 200 || status === 503)).toBe(true);
    const busyApi = apiAnswers.filter((answer) => answer.status === 503);
    const busyScreen = screenAnswers.filter((answer) => answer.status === 503);
    expect(busyApi.length + busyScreen.length).toBeGreaterThan(0);
    for (const answer of busyApi) {
      expect(answer.body.detail).toMatch(/^The server is busy checking passwords\./);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    for (const answer of busyScreen) {
      expect(answer.text).toContain("❌ Registration failed: The server is busy checking passwords.");
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
  });

  it("the login screen says so too (503, Retry-After), and once the burst is over the right password gets in", async () => {
    const email = uniqueEmail("after-flood");
    expect((await post(server, "/api/auth/register", { email, password: PASSWORD }, "203.0.116.1")).status).toBe(201);
    const flood = Array.from({ length: 16 }, (_, i) =>
      post(server, "/api/auth/login", { email: uniqueEmail("flood"), password: "guess-guess" }, `203.0.117.${i + 1}`),
    );
    const screens = Array.from({ length: 6 }, (_, i) =>
      postForm(server, "/login", { email: uniqueEmail("screen"), password: "guess-guess" }, `203.0.118.${i + 1}`),
    );
    const screenAnswers = await Promise.all(screens);
    await Promise.all(flood);
    const busy = screenAnswers.filter((answer) => answer.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.text).toContain("The server is busy checking passwords. Please try again in");
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    expect(screenAnswers.every((answer) => answer.status === 401 || answer.status === 503)).toBe(true);
    expect((await post(server, "/api/auth/login", { email, password: PASSWORD }, "203.0.116.1")).status).toBe(200);
  });
});
