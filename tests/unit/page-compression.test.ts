import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressPages } from "../../server/compression";

// server/compression.ts compresses pages: one call for a page written in one turn of the event loop,
// a streaming compressor (flushed each turn) for a page still being written after it.
const PAGE = `<!DOCTYPE html><html><body>${"<p>Words worth keeping, again and again.</p>".repeat(400)}</body></html>`;

let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    compressPages(req, res);
    if (req.url === "/page") {
      res.writeHead(200, "OK", { "Content-Type": "text/html; charset=utf-8", "Set-Cookie": ["a=1", "b=2"] });
      res.write(PAGE.slice(0, 5000));
      res.end(PAGE.slice(5000));
    } else if (req.url === "/streamed") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.write("<!DOCTYPE html><p>first part</p>");
      setTimeout(() => res.end("<p>deferred part</p>"), 300);
    } else {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ words: "x".repeat(5000) }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(path: string, acceptEncoding?: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; chunks: { at: number; bytes: Buffer }[] }>(
    (resolve, reject) => {
      const started = Date.now();
      http
        .get(base + path, { headers: acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {} }, (response) => {
          const chunks: { at: number; bytes: Buffer }[] = [];
          response.on("data", (bytes: Buffer) => chunks.push({ at: Date.now() - started, bytes }));
          response.on("end", () => resolve({ headers: response.headers, chunks }));
        })
        .on("error", reject);
    },
  );
}
const body = (chunks: { bytes: Buffer }[]) => Buffer.concat(chunks.map((chunk) => chunk.bytes));

describe("compressed pages", () => {
  it("a page written at once is compressed in one piece, with its length, its headers kept", async () => {
    for (const [accept, encoding, decode] of [
      ["gzip, br", "br", zlib.brotliDecompressSync],
      ["gzip", "gzip", zlib.gunzipSync],
    ] as const) {
      const answer = await get("/page", accept);
      expect(answer.headers["content-encoding"]).toBe(encoding);
      expect(answer.headers.vary).toContain("Accept-Encoding");
      expect(answer.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
      const sent = body(answer.chunks);
      expect(Number(answer.headers["content-length"])).toBe(sent.length);
      expect(sent.length).toBeLessThan(PAGE.length / 10);
      expect(decode(sent).toString("utf8")).toBe(PAGE);
    }
  });

  it("goes as it is to a browser that accepts neither, and JSON always does", async () => {
    const plain = await get("/page");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(body(plain.chunks).toString("utf8")).toBe(PAGE);
    const json = await get("/json", "br, gzip");
    expect(json.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(body(json.chunks).toString("utf8")).words).toHaveLength(5000);
  });

  it("a page still being written reaches the browser part by part", async () => {
    const answer = await get("/streamed", "br");
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["content-length"]).toBeUndefined();
    expect(zlib.brotliDecompressSync(body(answer.chunks)).toString("utf8")).toBe(
      "<!DOCTYPE html><p>first part</p><p>deferred part</p>",
    );
    // The first part came before the deferred one was written.
    expect(answer.chunks[0].at).toBeLessThan(250);
    expect(answer.chunks.at(-1)!.at).toBeGreaterThanOrEqual(280);
  });
});
