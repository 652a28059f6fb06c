import path from "node:path";
import { describe, expect, it } from "vitest";

// scripts/page-cache.mjs is plain JavaScript (the front door's): imported by a computed path.
const { createPageCache, ANONYMOUS_PAGE_HEADER } = (await import(path.resolve("scripts/page-cache.mjs"))) as {
  createPageCache: (options?: { ttlMs?: number; maxEntries?: number; now?: () => number }) => {
    keyOf(req: { method: string; url: string; headers: Record<string, string | undefined> }): string | null;
    get(key: string): { status: number; headers: [string, string][]; body: string } | null;
    admit(key: string | null, response: Response): Promise<{ status: number; headers: [string, string][]; body: string } | null>;
    size: number;
  };
  ANONYMOUS_PAGE_HEADER: string;
};

const NONCE = "AAAAAAAAAAAAAAAAAAAAAA==";
function page(mark = true, status = 200) {
  const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": `script-src 'self' 'nonce-${NONCE}'` });
  if (mark) headers.set(ANONYMOUS_PAGE_HEADER, "1");
  return new Response(`<script nonce="${NONCE}">hello</script>`, { status, headers });
}
const request = (url: string, cookie?: string, method = "GET") => ({ method, url, headers: { cookie } });

describe("the anonymous page cache (scripts/page-cache.mjs)", () => {
  it("keeps a marked page for its URL and cookies, and stamps every copy with a fresh nonce", async () => {
    const cache = createPageCache();
    const key = cache.keyOf(request("/login"))!;
    const first = await cache.admit(key, page());
    expect(first!.headers.map(([name]) => name)).not.toContain(ANONYMOUS_PAGE_HEADER);
    const copies = [cache.get(key)!, cache.get(key)!];
    const nonces = copies.map((copy) => /nonce="([^"]+)"/.exec(copy.body)![1]);
    expect(new Set([NONCE, ...nonces]).size).toBe(3);
    copies.forEach((copy, i) => {
      expect(copy.headers.find(([name]) => name === "content-security-policy")![1]).toBe(`script-src 'self' 'nonce-${nonces[i]}'`);
    });
    expect(cache.get(cache.keyOf(request("/login", "studio_prefs=light"))!)).toBeNull();
    expect(cache.get(cache.keyOf(request("/login?redirectTo=/voices"))!)).toBeNull();
  });

  it("keeps nothing unmarked, nothing but GET, and nothing past its second", async () => {
    let clock = 0;
    const cache = createPageCache({ now: () => clock });
    expect(cache.keyOf(request("/login", undefined, "HEAD"))).toBeNull();
    expect(cache.keyOf(request("/login", undefined, "POST"))).toBeNull();
    expect(await cache.admit(cache.keyOf(request("/a"))!, page(false))).toBeNull();
    expect(cache.get(cache.keyOf(request("/a"))!)).toBeNull();
    await cache.admit(cache.keyOf(request("/b"))!, page(true, 404));
    expect(cache.get(cache.keyOf(request("/b"))!)).toBeNull();
    const key = cache.keyOf(request("/c"))!;
    await cache.admit(key, page());
    clock = 999;
    expect(cache.get(key)).not.toBeNull();
    clock = 1000;
    expect(cache.get(key)).toBeNull();
  });

  it("holds a bounded number of pages, the oldest going first", async () => {
    const cache = createPageCache({ maxEntries: 2 });
    for (const url of ["/1", "/2", "/3"]) await cache.admit(cache.keyOf(request(url))!, page());
    expect(cache.size).toBe(2);
    expect(cache.get(cache.keyOf(request("/1"))!)).toBeNull();
    expect(cache.get(cache.keyOf(request("/3"))!)).not.toBeNull();
  });
});
