import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// scripts/server.mjs is plain JavaScript (no types): imported by a computed path.
const { applyTimeouts } = (await import(path.resolve("scripts/server.mjs"))) as { applyTimeouts: (server: http.Server) => http.Server };

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server that reads the whole body and answers its length, checking deadlines every 50 ms. */
async function bodyCounter(setup: (server: http.Server) => void) {
  const server = http.createServer({ connectionsCheckingInterval: 50 }, (req, res) => {
    let length = 0;
    req.on("data", (chunk: Buffer) => (length += chunk.length));
    req.on("end", () => res.end(String(length)));
  });
  setup(server);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** POSTs `chunks` pieces of 1 KiB, `gapMs` apart: a slow but steady upload. */
function slowPost(port: number, chunks: number, gapMs: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request({ port, host: "127.0.0.1", method: "POST", path: "/", headers: { "Content-Length": chunks * 1024 } });
    request.on("response", (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body }));
    });
    request.on("error", reject);
    let sent = 0;
    const timer = setInterval(() => {
      request.write(Buffer.alloc(1024));
      if (++sent === chunks) {
        clearInterval(timer);
        request.end();
      }
    }, gapMs);
  });
}

describe("production server timeouts (scripts/server.mjs)", () => {
  it("no overall request deadline (uploads are bounded by stalls and size), a sane one for headers", () => {
    const server = applyTimeouts(http.createServer());
    expect(server.requestTimeout).toBe(0);
    expect(server.headersTimeout).toBe(60_000);
  });

  it("a slow but steady body outlives what would have been the request deadline", async () => {
    // Node's defaults (headers within 60 s, the whole request within 300 s) scaled down so the test is
    // quick: the slow body is cut off (408)...
    const scaledDefaults = (server: http.Server) => {
      server.headersTimeout = 100;
      server.requestTimeout = 500;
    };
    const limited = await bodyCounter(scaledDefaults);
    const cut = await slowPost(limited, 12, 100).catch(() => ({ status: 0, body: "" }));
    expect(cut.status).toBe(408);
    // ...and with applyTimeouts the same body (1.2 s) arrives whole.
    const open = await bodyCounter((server) => {
      scaledDefaults(server);
      applyTimeouts(server);
    });
    expect(await slowPost(open, 12, 100)).toEqual({ status: 200, body: String(12 * 1024) });
  });
});
