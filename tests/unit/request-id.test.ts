import { describe, expect, it } from "vitest";
import { requestIdFor, requestIdFrom } from "~/lib/observe/request-id.server";
import { routeLabel } from "~/lib/observe/request-observation.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("the request id (app/lib/observe/request-id.server.ts)", () => {
  it("keeps a trusted proxy's id when it is short and plain", () => {
    for (const id of ["abc", "req-1.2:3@host_x", "a".repeat(128), "0f8e6f1c9b2a4d3e8f7a6b5c4d3e2f1a"]) {
      expect(requestIdFrom(id, true)).toBe(id);
    }
  });

  it("replaces a trusted proxy's id that is not one: empty, too long, spaces, lines, markup, lists", () => {
    for (const id of ["", "a".repeat(129), "two words", "a\nb", "<script>", "a, b", "ünïcode", "x/../y", "id;drop"]) {
      expect(requestIdFrom(id, true), JSON.stringify(id)).toMatch(UUID);
    }
  });

  it("never keeps an id from a peer it does not trust", () => {
    expect(requestIdFrom("abc", false)).toMatch(UUID);
    expect(requestIdFrom(undefined, true)).toMatch(UUID);
  });

  it("makes a new id for every request", () => {
    const ids = new Set(Array.from({ length: 100 }, () => requestIdFrom(undefined, false)));
    expect(ids.size).toBe(100);
  });

  it("without TRUST_PROXY (the unit tests' settings) a client's id is never kept, from loopback either", () => {
    expect(requestIdFor("client-chosen", "127.0.0.1")).toMatch(UUID);
    expect(requestIdFor(["one", "two"], "127.0.0.1")).toMatch(UUID);
    expect(requestIdFor(undefined, undefined)).toMatch(UUID);
  });
});

describe("routeLabel", () => {
  it("writes React Router's patterns as app/routes.ts does, with the leading slash", () => {
    expect(routeLabel("s/:token")).toBe("/s/:token");
    expect(routeLabel("content/:id/history")).toBe("/content/:id/history");
    expect(routeLabel("api/*")).toBe("/api/*");
    expect(routeLabel("*")).toBe("/*");
    expect(routeLabel("/")).toBe("/");
  });
});
