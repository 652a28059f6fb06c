import http from "node:http";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { baseUrl, newUser } from "../support/api";
import { request } from "../support/client.mjs";
import { startTestServer } from "../support/server";

/** A request by node:http (fetch refuses TRACE and CONNECT), answered as status, headers and text. */
function send(
  method: string,
  path: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(baseUrl() + path, { method }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text }));
    });
    request.on("error", reject);
    request.end();
  });
}

const ALLOW = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

describe("the front door (server/)", () => {
  it.each(["TRACE", "PROPFIND", "MKCOL", "LOCK"])("%s under /api: 405 JSON {detail} with Allow", async (method) => {
    for (const path of ["/api/health", "/api/content/", "/api/no-such-thing"]) {
      const answer = await send(method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.allow).toBe(ALLOW);
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(answer.text)).toEqual({ detail: "Method not allowed" });
      // The app's one list of security headers, here too.
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    }
  });

  it.each(["TRACE", "PROPFIND"])("%s on pages and static files: a plain 405, never 500", async (method) => {
    for (const path of ["/", "/dashboard", "/favicon.ico", "/no-such-page"]) {
      const answer = await send(method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.allow).toBe(ALLOW);
      expect(answer.headers["content-type"]).toMatch(/^text\/plain/);
      expect(answer.text).not.toContain("Unexpected Server Error");
    }
  });

  it("a malformed percent-escape in an /api path: 400 JSON {detail}", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const answer = await send(method, "/api/content/%ZZ");
      expect(answer.status, method).toBe(400);
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(answer.text)).toEqual({ detail: expect.stringContaining("Malformed URL") });
    }
  });

  it("a malformed percent-escape in a page path: a plain 400", async () => {
    const answer = await send("GET", "/content/%E0%A4%A");
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toMatch(/^text\/plain/);
  });

  it("its own answers under /s/ (405, 400) carry the shared page's headers, however the path is written", async () => {
    const token = "Zk3q9V_x-2mP0aLr8sT1uW4yB6cD5eF7";
    for (const [method, path, status] of [
      ["PROPFIND", `/s/${token}`, 405],
      ["TRACE", `/%53/${token}/file/x`, 405],
      ["GET", `/s/${token}%ZZ`, 400],
    ] as const) {
      const answer = await send(method, path);
      expect(answer.status, `${method} ${path}`).toBe(status);
      expect(answer.headers["x-robots-tag"], path).toBe("noindex");
      expect(answer.headers["referrer-policy"], path).toBe("no-referrer");
      expect(answer.headers["cache-control"], path).toBe("no-store");
      expect(answer.headers["content-security-policy"], path).toMatch(/script-src 'none'/);
    }
    // Elsewhere they keep the app's own.
    expect((await send("PROPFIND", "/api/health")).headers["x-robots-tag"]).toBeUndefined();
  });

  it("the supported methods still reach the app", async () => {
    expect((await send("GET", "/api/health")).status).toBe(200);
    expect((await send("HEAD", "/")).status).toBe(200);
    const unknownApi = await send("GET", "/api/no-such-thing");
    expect(unknownApi.status).toBe(404);
  });
});

/** A GET by node:http with request headers, answered as status, headers and the raw body. */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(baseUrl() + path, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

describe("client files (sirv) and compression of dynamic answers (compression)", () => {
  /** The largest script the login page loads (small files have no compressed copy). */
  async function firstScript(): Promise<string> {
    const html = (await get("/login")).body.toString("utf8");
    const scripts = [...html.matchAll(/<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/g)].map(
      (match) => match[1],
    );
    expect(scripts.length, "the login page names its scripts").toBeGreaterThan(0);
    const sizes = await Promise.all(scripts.map(async (script) => (await get(script)).body.length));
    return scripts[sizes.indexOf(Math.max(...sizes))];
  }

  it("hashed assets are cached for a year, immutable; other files for an hour", async () => {
    const asset = await get(await firstScript());
    expect(asset.status).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(asset.headers["x-content-type-options"]).toBe("nosniff");
    const favicon = await get("/favicon.ico");
    expect(favicon.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("sends the build's brotli or gzip copy to browsers that accept it, the same bytes once decoded", async () => {
    const path = await firstScript();
    const plain = await get(path);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const brotli = await get(path, { "Accept-Encoding": "gzip, deflate, br" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers.vary).toBe("Accept-Encoding");
    expect(brotli.body.length).toBeLessThan(plain.body.length);
    expect(zlib.brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    const gzip = await get(path, { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    const refused = await get(path, { "Accept-Encoding": "br;q=0, gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
  });

  it("answers 304 to a matching ETag", async () => {
    const first = await get("/favicon.ico");
    expect(first.headers.etag).toBeTruthy();
    expect(first.headers["content-type"]).toBe("image/x-icon");
    expect((await get("/favicon.ico", { "If-None-Match": first.headers.etag! })).status).toBe(304);
    expect((await get("/favicon.ico", { "If-None-Match": 'W/"other"' })).status).toBe(200);
  });

  it("answers a byte range with 206, and one it cannot meet with 416", async () => {
    const whole = await get("/static/music-demos/demo1.mp3");
    const part = await get("/static/music-demos/demo1.mp3", { Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-199/${whole.body.length}`);
    expect(part.body.equals(whole.body.subarray(100, 200))).toBe(true);
    const rest = await get("/static/music-demos/demo1.mp3", { Range: `bytes=${whole.body.length - 10}-` });
    expect(rest.status).toBe(206);
    expect(rest.body.equals(whole.body.subarray(whole.body.length - 10))).toBe(true);
    const beyond = await get("/static/music-demos/demo1.mp3", { Range: `bytes=${whole.body.length + 5}-` });
    expect(beyond.status).toBe(416);
  });

  it("compresses documents for browsers that accept it; JSON goes as it is", async () => {
    const plain = await get("/login");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const page = await get("/login", { "Accept-Encoding": "br, gzip" });
    expect(page.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(page.body).toString("utf8")).toContain("<form");
    const gzipPage = await get("/login", { "Accept-Encoding": "gzip" });
    expect(gzipPage.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzipPage.body).toString("utf8")).toContain("<form");
    const health = await get("/api/health", { "Accept-Encoding": "br, gzip" });
    expect(health.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(health.body.toString("utf8")).status).toBe("ok");
    // JSON is sent as it is, even a list of a few KB: compressing it costs more than it saves here.
    const { token } = await newUser("uncompressed-list");
    for (let i = 0; i < 8; i++) {
      const created = await fetch(`${baseUrl()}/api/content`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ title: `Note ${i}`, body: "words worth keeping ".repeat(40) }),
      });
      expect(created.status).toBe(201);
    }
    const list = await get("/api/content", { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip, br" });
    expect(list.headers["content-encoding"]).toBeUndefined();
    expect(Number(list.headers["content-length"])).toBe(list.body.length);
    expect(JSON.parse(list.body.toString("utf8"))).toHaveLength(8);
  });

  it("a HEAD of a client file has its headers and no body", async () => {
    const head = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .request(baseUrl() + "/favicon.ico", { method: "HEAD" }, resolve)
        .on("error", reject)
        .end();
    });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
  });

  it("a body refused by its size is read and dropped: the client finishes sending, reads the 413, and the connection serves the next request", async () => {
    const { token } = await newUser("drain");
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const send = (path: string, body?: Buffer) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = http.request(
          baseUrl() + path,
          {
            method: body ? "POST" : "GET",
            agent,
            headers: {
              Authorization: `Bearer ${token}`,
              ...(body ? { "Content-Type": "application/json", "Content-Length": String(body.length) } : {}),
            },
          },
          (response) => {
            sockets.add(response.socket);
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk) => (text += chunk));
            response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
          },
        );
        request.on("error", reject);
        request.end(body);
      });
    // 12 MB of JSON to an API whose bodies are at most 2 MB, refused by its Content-Length unread.
    const refused = await send(
      "/api/content",
      Buffer.from(JSON.stringify({ title: "x", body: "y".repeat(12 * 1024 * 1024) })),
    );
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text).detail).toMatch(/at most/);
    const next = await send("/api/health");
    expect(next.status).toBe(200);
    // One connection carried both: the refused body was drained, not cut off.
    expect(sockets.size).toBe(1);
    agent.destroy();
  });
});

describe("the request id (X-Request-Id)", () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it("every answer carries X-Request-Id; a client's is ignored without TRUST_PROXY and a trusted proxy's kept; the error page shows it", async () => {
    // The app's answers (JSON, a page, a HEAD, a 404), a client file, the front door's own 405 and 400.
    const answers = [
      await send("GET", "/api/health"),
      await send("GET", "/login"),
      await send("HEAD", "/"),
      await send("GET", "/no-such-page"),
      await send("GET", "/favicon.ico"),
      await send("PROPFIND", "/api/health"),
      await send("GET", "/api/content/%ZZ"),
    ];
    const ids = answers.map((answer) => answer.headers["x-request-id"]);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);

    // The suite's server trusts loopback (TRUST_PROXY=loopback): a proxy's plain id there is kept,
    // anything that is not one is replaced.
    expect((await get("/api/health", { "X-Request-Id": "proxy-id-42" })).headers["x-request-id"]).toBe("proxy-id-42");
    for (const given of ["two words", "<b>", "x".repeat(129)])
      expect((await get("/api/health", { "X-Request-Id": given })).headers["x-request-id"]).toMatch(UUID);

    // The error page (root's ErrorBoundary: a form posted to a page without an action) names it.
    const posted = await request(baseUrl(), "/", { method: "POST", form: { x: "1" }, browser: true });
    expect(posted.status).toBe(405);
    const postedId = posted.headers.get("x-request-id");
    expect(postedId).toMatch(UUID);
    expect(posted.text).toContain(`Reference: ${postedId}`);
    const proxied = await request(baseUrl(), "/", {
      method: "POST",
      form: { x: "1" },
      browser: true,
      headers: { "X-Request-Id": "proxy-id-43" },
    });
    expect(proxied.text).toContain("Reference: proxy-id-43");

    // Without TRUST_PROXY nobody's id is kept, loopback's neither.
    const untrusting = await startTestServer({ TRUST_PROXY: "" });
    try {
      const answer = await fetch(`${untrusting.url}/api/health`, { headers: { "X-Request-Id": "client-chosen" } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-request-id")).toMatch(UUID);
    } finally {
      await untrusting.stop();
    }
  });
});
