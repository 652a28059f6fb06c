import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { baseUrl, PASSWORD, uniqueEmail } from "../support/api";
import { formLogin as postLoginForm, register as registerThrough } from "../support/client.mjs";

// Strict-Transport-Security and the cross-origin check's scheme (decision 0052).
// The shared test server trusts loopback proxies (TRUST_PROXY=loopback) and has no PUBLIC_URL.
const HSTS = "max-age=31536000; includeSubDomains";

/** A request by node:http (fetch refuses some methods), answered as status and headers. */
function send(
  url: string,
  method: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers }));
    });
    request.on("error", reject);
    request.end();
  });
}

/** Pages, the API, a client file and the server's own refusal (405), as `headers` asks them. */
async function everyKindOfAnswer(url: string, headers: Record<string, string>) {
  const answers = await Promise.all([
    send(`${url}/login`, "GET", headers),
    send(`${url}/api/health`, "GET", headers),
    send(`${url}/api/no-such-thing`, "GET", headers),
    send(`${url}/favicon.ico`, "GET", headers),
    send(`${url}/`, "PROPFIND", headers),
  ]);
  expect(answers.map((answer) => answer.status)).toEqual([200, expect.any(Number), 404, 200, 405]);
  return answers.map((answer) => answer.headers["strict-transport-security"]);
}

async function register(url: string): Promise<string> {
  const email = uniqueEmail("transport");
  const made = await registerThrough(url, email);
  expect(made.status).toBe(201);
  return email;
}

/** The login form posted as a browser on `origin` would (a document request: React Router's own check runs too). */
function formLogin(url: string, email: string, headers: Record<string, string>) {
  return postLoginForm(url, email, { headers });
}

describe("Strict-Transport-Security behind a trusted proxy (TRUST_PROXY=loopback)", () => {
  it("on every answer when the proxy says X-Forwarded-Proto: https", async () => {
    expect(await everyKindOfAnswer(baseUrl(), { "X-Forwarded-Proto": "https" })).toEqual([
      HSTS,
      HSTS,
      HSTS,
      HSTS,
      HSTS,
    ]);
  });

  it("on none over plain HTTP, or when the proxy says http", async () => {
    expect(await everyKindOfAnswer(baseUrl(), {})).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(await everyKindOfAnswer(baseUrl(), { "X-Forwarded-Proto": "http" })).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("the cross-origin check compares scheme and host, with the trusted proxy's scheme", () => {
  it("https:// pages behind the proxy post; an http:// page of the same host is refused (403, ours, not React Router's 400)", async () => {
    const email = await register(baseUrl());
    const host = new URL(baseUrl()).host;
    const viaTls = await formLogin(baseUrl(), email, { Origin: `https://${host}`, "X-Forwarded-Proto": "https" });
    expect(viaTls.status).toBe(302);
    expect(viaTls.headers.get("Location")).toBe("/dashboard");
    const plainPage = await formLogin(baseUrl(), email, { Origin: `http://${host}`, "X-Forwarded-Proto": "https" });
    expect(plainPage.status).toBe(403);
    expect(plainPage.text).toContain("Cross-origin request refused");
    // With no word from the proxy, the connection's scheme (http) counts.
    expect((await formLogin(baseUrl(), email, { Origin: `http://${host}` })).status).toBe(302);
    expect((await formLogin(baseUrl(), email, { Origin: `https://${host}` })).status).toBe(403);
    // The API answers the same way, as JSON.
    const api = await fetch(`${baseUrl()}/api/auth/login`, {
      method: "POST",
      headers: { Origin: `http://${host}`, "X-Forwarded-Proto": "https", "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(api.status).toBe(403);
    expect(await api.json()).toEqual({ detail: "Cross-origin request refused" });
  });
});

describe("a peer TRUST_PROXY does not trust (TRUST_PROXY=10.9.8.7, requests from loopback)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: "10.9.8.7" });
  });
  afterAll(() => server?.stop());

  it("its X-Forwarded-Proto: https brings no HSTS", async () => {
    expect(await everyKindOfAnswer(server.url, { "X-Forwarded-Proto": "https" })).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("its X-Forwarded-Proto and -Host count for nothing in the cross-origin check", async () => {
    const email = await register(server.url);
    const host = new URL(server.url).host;
    expect(
      (await formLogin(server.url, email, { Origin: `https://${host}`, "X-Forwarded-Proto": "https" })).status,
    ).toBe(403);
    expect(
      (await formLogin(server.url, email, { Origin: "http://evil.example", "X-Forwarded-Host": "evil.example" }))
        .status,
    ).toBe(403);
    expect(
      (
        await formLogin(server.url, email, {
          Origin: `http://${host}`,
          "X-Forwarded-Proto": "https",
          "X-Forwarded-Host": "evil.example",
        })
      ).status,
    ).toBe(302);
  });
});

describe("PUBLIC_URL on https", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: "https://studio.example.org" });
  });
  afterAll(() => server?.stop());

  it("HSTS on every answer, whatever the request says", async () => {
    expect(await everyKindOfAnswer(server.url, {})).toEqual([HSTS, HSTS, HSTS, HSTS, HSTS]);
    expect(await everyKindOfAnswer(server.url, { "X-Forwarded-Proto": "http" })).toEqual([
      HSTS,
      HSTS,
      HSTS,
      HSTS,
      HSTS,
    ]);
  });

  it("its scheme is the one writes must come from when no proxy says otherwise", async () => {
    const email = await register(server.url);
    const host = new URL(server.url).host;
    expect((await formLogin(server.url, email, { Origin: `http://${host}` })).status).toBe(403);
    expect((await formLogin(server.url, email, { Origin: `https://${host}` })).status).toBe(302);
  });
});
