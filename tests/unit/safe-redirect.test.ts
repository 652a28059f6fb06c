import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/common/safe-redirect";

describe("safeRedirectPath with characters outside ASCII", () => {
  it.each([
    ["/日本", "/%E6%97%A5%E6%9C%AC"],
    ["/content/日本?q=café#ü", "/content/%E6%97%A5%E6%9C%AC?q=caf%C3%A9#%C3%BC"],
    ["/dashboard?tag=😀", "/dashboard?tag=%F0%9F%98%80"],
    ["/caf\u00e9", "/caf%C3%A9"],
    ["/\u202egnp", "/%E2%80%AEgnp"],
  ])("percent-encodes %j as UTF-8 so a Location header can carry it", (target, expected) => {
    const path = safeRedirectPath(target);
    expect(path).toBe(expected);
    expect(/^[\u0020-\u007e]*$/.test(path)).toBe(true);
    // A Location header accepts it (a non-Latin-1 one threw "Cannot convert argument to a ByteString": 500).
    expect(() => new Headers({ Location: path })).not.toThrow();
    expect(() => Response.redirect(`http://studio.test${path}`, 302)).not.toThrow();
  });

  it("leads to the same page the browser would have asked for", () => {
    for (const target of ["/日本", "/content/日本?q=café#ü", "/a b/ü"]) {
      const base = "http://studio.test";
      const asTyped = new URL(target, base);
      const asEncoded = new URL(safeRedirectPath(target), base);
      expect(asEncoded.href).toBe(asTyped.href);
    }
  });

  it("leaves ASCII targets exactly as they were, already-encoded ones included", () => {
    for (const target of ["/dashboard", "/%E6%97%A5%E6%9C%AC", "/a/b/c?x=%2F%2Fevil", "/content#top"])
      expect(safeRedirectPath(target)).toBe(target);
  });

  it.each(["/\ud800", "/a\udfffb", "//日本.example/", "/日本\t/x", "/日本\\evil"])("refuses %j", (target) => {
    expect(safeRedirectPath(target)).toBe("/dashboard");
  });
});
