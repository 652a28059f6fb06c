import http from "node:http";
import { describe, expect, it } from "vitest";
import { baseUrl } from "./client";

/** A request by node:http (fetch refuses TRACE and CONNECT), answered as status, headers and text. */
function send(method: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
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

describe("the front door (scripts/server.mjs)", () => {
  it.each(["TRACE", "PROPFIND", "MKCOL", "LOCK"])("%s under /api: 405 JSON {detail} with Allow", async (method) => {
    for (const path of ["/api/health", "/api/content/", "/api/no-such-thing"]) {
      const answer = await send(method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.allow).toBe(ALLOW);
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(answer.text)).toEqual({ detail: "Method not allowed" });
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

  it("the supported methods still reach the app", async () => {
    expect((await send("GET", "/api/health")).status).toBe(200);
    expect((await send("HEAD", "/")).status).toBe(200);
    const unknownApi = await send("GET", "/api/no-such-thing");
    expect(unknownApi.status).toBe(404);
  });
});
