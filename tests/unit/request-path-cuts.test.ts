import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { compressPages } from "../../server/compression";

// What every request pays before and after its route's own work is done once and only where it is
// needed (docs/decisions/0083-the-request-path.md): each test fails if its cut is undone.

const hmacs = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:crypto", async (importOriginal) => {
  const crypto = await importOriginal<typeof import("node:crypto")>();
  const createHmac: typeof crypto.createHmac = (...args) => {
    hmacs.count++;
    return crypto.createHmac(...args);
  };
  return { ...crypto, default: { ...crypto, createHmac }, createHmac };
});

const { createSignedCookie, VERIFIED_VALUES_MAX } = await import("~/lib/screens/signed-cookie.server");

const pairOf = (setCookie: string) => setCookie.split(";")[0];

describe("a signed cookie's signature is computed once per value", () => {
  it("a cookie read again is not verified again, and reads the same", async () => {
    const cookie = createSignedCookie("__session", { secrets: ["request-path-secret-0123456789"] });
    const header = pairOf(await cookie.serialize({ accessToken: "a", refreshToken: "r" }));
    hmacs.count = 0;
    expect(await cookie.parse(header)).toEqual({ accessToken: "a", refreshToken: "r" });
    expect(hmacs.count).toBe(1);
    for (let i = 0; i < 5; i++) expect(await cookie.parse(header)).toEqual({ accessToken: "a", refreshToken: "r" });
    expect(hmacs.count).toBe(1);
  });

  it("each read gets its own value: a reader changing it changes nothing for the next", async () => {
    const cookie = createSignedCookie("prefs", { secrets: ["request-path-secret-0123456789"] });
    const header = pairOf(await cookie.serialize({ theme: "dark" }));
    const first = (await cookie.parse(header)) as { theme: string };
    first.theme = "light";
    expect(await cookie.parse(header)).toEqual({ theme: "dark" });
  });

  it("any other string is checked in full: a changed value or signature is still refused", async () => {
    const cookie = createSignedCookie("__session", { secrets: ["request-path-secret-0123456789"] });
    const header = pairOf(await cookie.serialize({ user: "a" }));
    await cookie.parse(header);
    const [name, signed] = [
      header.slice(0, header.indexOf("=")),
      decodeURIComponent(header.slice(header.indexOf("=") + 1)),
    ];
    const dot = signed.lastIndexOf(".");
    const forgedValue = Buffer.from(JSON.stringify({ user: "b" })).toString("base64") + signed.slice(dot);
    expect(await cookie.parse(`${name}=${encodeURIComponent(forgedValue)}`)).toBeNull();
    const flipped = signed.slice(0, -1) + (signed.endsWith("A") ? "B" : "A");
    expect(await cookie.parse(`${name}=${encodeURIComponent(flipped)}`)).toBeNull();
  });

  it("a value one cookie verified is not taken by another cookie with other secrets", async () => {
    const mine = createSignedCookie("__session", { secrets: ["request-path-secret-0123456789"] });
    const other = createSignedCookie("__session", { secrets: ["another-secret-entirely-9876543210"] });
    const header = pairOf(await mine.serialize({ user: "a" }));
    expect(await mine.parse(header)).toEqual({ user: "a" });
    expect(await other.parse(header)).toBeNull();
  });

  it("remembers a bounded number of values, the oldest forgotten first", async () => {
    const cookie = createSignedCookie("__session", { secrets: ["request-path-secret-0123456789"] });
    const first = pairOf(await cookie.serialize({ n: -1 }));
    await cookie.parse(first);
    for (let n = 0; n < VERIFIED_VALUES_MAX; n++) await cookie.parse(pairOf(await cookie.serialize({ n })));
    hmacs.count = 0;
    expect(await cookie.parse(first)).toEqual({ n: -1 });
    expect(hmacs.count).toBe(1);
  });
});

describe("pages alone negotiate their encoding", () => {
  let server: http.Server;
  let base = "";
  let reads = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      // Count every read of Accept-Encoding made while answering.
      const value = req.headers["accept-encoding"];
      Object.defineProperty(req.headers, "accept-encoding", {
        configurable: true,
        enumerable: true,
        get: () => (reads++, value),
      });
      compressPages(req, res);
      const html = req.url === "/page";
      res.writeHead(200, { "Content-Type": html ? "text/html; charset=utf-8" : "application/json" });
      res.end(html ? `<p>${"page ".repeat(400)}</p>` : JSON.stringify({ words: "x".repeat(5000) }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a JSON answer never reads Accept-Encoding; a page does, and is compressed", async () => {
    reads = 0;
    const json = await fetch(`${base}/api`, { headers: { "Accept-Encoding": "br, gzip" } });
    expect(json.headers.get("Content-Encoding")).toBeNull();
    await json.text();
    expect(reads).toBe(0);
    const page = await fetch(`${base}/page`, { headers: { "Accept-Encoding": "br, gzip" } });
    expect(page.headers.get("Content-Encoding")).toBe("br");
    await page.text();
    expect(reads).toBeGreaterThan(0);
  });
});
