import { describe, expect, it } from "vitest";
import { grantShareView, SHARE_GRANT_SECONDS, shareGrantIsValid } from "~/lib/share-grant.server";

describe("a shared page's view grant (app/lib/share-grant.server.ts)", () => {
  const now = Date.parse("2026-11-27T10:00:00Z");

  it("is valid for its share until it runs out, six hours on", () => {
    const grant = grantShareView("share-1", null, now);
    expect(grant).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(shareGrantIsValid("share-1", grant, now)).toBe(true);
    expect(shareGrantIsValid("share-1", grant, now + SHARE_GRANT_SECONDS * 1000 - 1000)).toBe(true);
    expect(shareGrantIsValid("share-1", grant, now + SHARE_GRANT_SECONDS * 1000)).toBe(false);
  });

  it("runs out with the link when the link's expiry comes sooner", () => {
    const grant = grantShareView("share-1", new Date(now + 60_000).toISOString(), now);
    expect(shareGrantIsValid("share-1", grant, now + 59_000)).toBe(true);
    expect(shareGrantIsValid("share-1", grant, now + 60_000)).toBe(false);
  });

  it("is refused for another share, with a changed expiry, or when missing or malformed", () => {
    const grant = grantShareView("share-1", null, now);
    expect(shareGrantIsValid("share-2", grant, now)).toBe(false);
    const [expires, signature] = grant.split(".");
    expect(shareGrantIsValid("share-1", `${Number(expires) + 3600}.${signature}`, now)).toBe(false);
    for (const bad of [null, "", "123", `${expires}.`, `x.${signature}`, `${expires}.${signature}x`])
      expect(shareGrantIsValid("share-1", bad, now)).toBe(false);
  });
});
