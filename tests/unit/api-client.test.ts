import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiJson } from "~/browser/api-client";

/** A fake server: /api/auth/refresh answers `refreshStatus`; other calls 401 until a refresh succeeded. */
function fakeServer(refreshStatus: number) {
  let refreshed = false;
  const calls: string[] = [];
  const fetchMock = vi.fn(async (url: string) => {
    calls.push(url);
    if (url === "/api/auth/refresh") {
      await new Promise((resolve) => setTimeout(resolve, 20));
      refreshed = refreshStatus === 200;
      return new Response("{}", { status: refreshStatus });
    }
    if (!refreshed) return Response.json({ detail: "Not authenticated" }, { status: 401 });
    return Response.json({ url });
  });
  return { fetchMock, calls };
}

describe("browser API client (docs/screens.md#states-and-transitions)", () => {
  const assign = vi.fn();
  beforeEach(() => {
    vi.stubGlobal("window", { location: { pathname: "/content/1", search: "?edit=1", assign } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    assign.mockReset();
  });

  it("refreshes once for concurrent 401s and replays every waiting call", async () => {
    const server = fakeServer(200);
    vi.stubGlobal("fetch", server.fetchMock);
    const results = await Promise.all([apiJson("/api/a"), apiJson("/api/b"), apiJson("/api/c")]);
    expect(results).toEqual([{ url: "/api/a" }, { url: "/api/b" }, { url: "/api/c" }]);
    expect(server.calls.filter((url) => url === "/api/auth/refresh")).toHaveLength(1);
    expect(server.calls.filter((url) => url === "/api/a")).toHaveLength(2);
    expect(assign).not.toHaveBeenCalled();
  });

  it("a failed refresh logs a warning and sends the person to /login", async () => {
    const server = fakeServer(401);
    vi.stubGlobal("fetch", server.fetchMock);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await expect(apiJson("/api/a")).rejects.toBeInstanceOf(ApiError);
    expect(warn).toHaveBeenCalledOnce();
    expect(assign).toHaveBeenCalledWith("/login?redirectTo=%2Fcontent%2F1%3Fedit%3D1");
    // Each request is retried once at most: no loop of refreshes.
    expect(server.calls.filter((url) => url === "/api/a")).toHaveLength(1);
    warn.mockRestore();
  });

  it("other failures surface the server's detail", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ detail: "Title is required" }, { status: 422 })),
    );
    await expect(apiJson("/api/content", { body: {} })).rejects.toMatchObject({
      status: 422,
      detail: "Title is required",
    });
  });
});
