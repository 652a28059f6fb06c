import http from "node:http";
import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser } from "../support/api";

describe("GET /api/health", () => {
  it("reports status and test mode", async () => {
    const { status, body } = await api("/api/health");
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "ok", test_mode: true, database: "ok", job_runner: "ok" });
  });
});

describe("POST /api/feedback", () => {
  it("stores feedback without signing in -> 200", async () => {
    const { status, body } = await api("/api/feedback", {
      json: { name: "Ada", email: "ada@example.com", message: "Love it" },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, id: expect.any(String) });
  });

  it("also from a signed-in user", async () => {
    const { token } = await newUser();
    expect(
      (await api("/api/feedback", { json: { name: "B", email: "b@example.com", message: "Hi" }, token })).status,
    ).toBe(200);
  });

  it.each([
    [{ email: "a@example.com", message: "x" }, "Name is required"],
    [{ name: " ", email: "a@example.com", message: "x" }, "Name is required"],
    [{ name: "A", email: "nope", message: "x" }, "Enter a valid email address"],
    [{ name: "A", email: "a@example.com", message: "" }, "Message is required"],
    [{ name: "A", email: "a@example.com", message: "x".repeat(5001) }, "Message must be at most 5000 characters"],
  ])("invalid feedback #%# -> 422 with its detail", async (json, detail) => {
    expect(await api("/api/feedback", { json })).toMatchObject({ status: 422, body: { detail } });
  });

  it("bad JSON -> 400", async () => {
    expect((await api("/api/feedback", { raw: "nope", headers: { "Content-Type": "application/json" } })).status).toBe(
      400,
    );
  });
});

describe("security", () => {
  it("refuses writes whose Origin is another site (403), API and forms alike", async () => {
    const json = { name: "A", email: "a@example.com", message: "x" };
    const api403 = await api("/api/feedback", { json, headers: { Origin: "https://evil.example" } });
    expect(api403).toMatchObject({ status: 403, body: { detail: "Cross-origin request refused" } });
    const form = await fetch(`${baseUrl()}/feedback`, {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: new URLSearchParams(json),
    });
    expect(form.status).toBe(403);
    const sameOrigin = await api("/api/feedback", { json, headers: { Origin: baseUrl() } });
    expect(sameOrigin.status).toBe(200);
  });

  it("pages carry a CSP with a fresh nonce and the hardening headers", async () => {
    const first = await fetch(`${baseUrl()}/`);
    const second = await fetch(`${baseUrl()}/`);
    const csp = first.headers.get("content-security-policy")!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(second.headers.get("content-security-policy")).not.toBe(csp);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    const html = await first.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
  });

  it("static files are served with nosniff", async () => {
    const favicon = await fetch(`${baseUrl()}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("protected screens redirect to /login without a session", async () => {
    const response = await fetch(`${baseUrl()}/dashboard`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fdashboard");
  });

  it("unknown paths: JSON 404 under /api, the 404 page elsewhere", async () => {
    expect(await api("/api/does-not-exist")).toMatchObject({ status: 404, body: { detail: "Not found" } });
    const page = await fetch(`${baseUrl()}/does-not-exist`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Return Home");
  });
});

describe("request bodies", () => {
  it("a JSON body over 2 MiB is refused with 413 before it is read, declared or streamed", async () => {
    const big = JSON.stringify({ name: "A", email: "a@example.com", message: "x".repeat(3 * 1024 * 1024) });
    const declared = await api("/api/feedback", { raw: big, headers: { "Content-Type": "application/json" } });
    expect(declared).toMatchObject({ status: 413, body: { detail: "Request body must be at most 2 MiB" } });
    // Without a Content-Length (chunked), the count stops it.
    expect(await postChunked("/api/feedback", 3 * 1024 * 1024)).toBe(413);
  });

  it("a form that cannot be read is 400 and a huge one 413, on screens and the API, never 500", async () => {
    const noBoundary = { "Content-Type": "multipart/form-data" };
    for (const path of ["/login", "/register", "/feedback", "/preferences", "/create"]) {
      const response = await fetch(baseUrl() + path, {
        method: "POST",
        headers: noBoundary,
        body: "garbage",
        redirect: "manual",
      });
      expect([400, 302], path).toContain(response.status);
    }
    expect((await api("/api/auth/login", { raw: "garbage", headers: noBoundary })).status).toBe(400);
    expect(await postChunked("/feedback", 5 * 1024 * 1024, "application/x-www-form-urlencoded")).toBe(413);
  });

  it("calls with the wrong method answer 405 with a detail", async () => {
    for (const path of [
      "/api/auth/login",
      "/api/auth/register",
      "/api/auth/refresh",
      "/api/auth/logout",
      "/api/feedback",
    ]) {
      expect(await api(path), path).toMatchObject({ status: 405, body: { detail: "Method not allowed" } });
    }
    expect((await api("/api/health", { method: "POST" })).status).toBe(405);
  });
});

/** Posts `bytes` of "x" with chunked transfer (no Content-Length); resolves with the status. */
function postChunked(path: string, bytes: number, contentType = "application/json"): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      baseUrl() + path,
      { method: "POST", headers: { "Content-Type": contentType } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    const chunk = Buffer.alloc(64 * 1024, "x");
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", write);
      }
      request.end();
    };
    write();
  });
}
