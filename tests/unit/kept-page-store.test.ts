import { describe, expect, it } from "vitest";
import { createKeptPageStore } from "~/lib/page-cache/kept-page-store.server";

// The page store holds a rendered page as UTF-8 bytes cut at its CSP nonce and hands out copies
// joined by a fresh one (app/lib/page-cache/kept-page-store.server.ts): the bytes must come back exactly, whatever
// the text around the nonce, and the nonce must never be handed out twice.

const NONCE = "qssJvkWMDnamRqz96Zv+gA==";
const page = (body: string) => ({
  status: 200,
  headers: [
    ["content-type", "text/html; charset=utf-8"],
    ["content-security-policy", `script-src 'self' 'nonce-${NONCE}'`],
  ] as [string, string][],
  body: new TextEncoder().encode(body),
});

describe("createKeptPageStore", () => {
  it("hands out the page byte for byte with a new nonce in the header and every script, multi-byte text intact", () => {
    const store = createKeptPageStore({ maxBytes: 1024 * 1024 });
    const html = `<script nonce="${NONCE}">a</script><p>Café ★ 🎨 “quotes”</p><script nonce="${NONCE}">b</script>${NONCE}`;
    store.keep("k", page(html));
    const first = store.take("k")!;
    const second = store.take("k")!;
    const nonceOf = (copy: typeof first) =>
      /'nonce-([^']+)'/.exec(copy.headers.find(([name]) => name === "content-security-policy")![1])![1];
    const [one, two] = [nonceOf(first), nonceOf(second)];
    expect(new Set([one, two, NONCE]).size).toBe(3);
    expect(new TextDecoder().decode(first.body)).toBe(html.split(NONCE).join(one));
    expect(new TextDecoder().decode(second.body)).toBe(html.split(NONCE).join(two));
  });

  it("does not keep a page without a nonce, and forgets what was kept under its key", () => {
    const store = createKeptPageStore({ maxBytes: 1024 * 1024 });
    store.keep("k", page(`<p nonce="${NONCE}">x</p>`));
    expect(store.take("k")).not.toBeNull();
    store.keep("k", { ...page("<p>no scripts</p>"), headers: [["content-type", "text/html"]] });
    expect(store.take("k")).toBeNull();
  });
});
