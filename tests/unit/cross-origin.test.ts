import { describe, expect, it } from "vitest";
import { isCrossOriginMutation, trustProxyEnabled } from "~/lib/http/security.server";

const post = (headers: Record<string, string>, method = "POST") =>
  new Request("http://studio.test/content/new", { method, headers: { Host: "studio.test", ...headers } });

describe("the cross-origin rule", () => {
  it("TRUST_PROXY is off by default (the unit tests run without it)", () => {
    expect(trustProxyEnabled()).toBe(false);
  });

  it("X-Forwarded-Host does not count when TRUST_PROXY is off", () => {
    // Anyone can write X-Forwarded-Host: it must not make another site's Origin look like ours.
    expect(isCrossOriginMutation(post({ Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" }))).toBe(true);
    expect(isCrossOriginMutation(post({ Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" }), false)).toBe(true);
    // Our own Origin still passes, whatever X-Forwarded-Host says.
    expect(isCrossOriginMutation(post({ Origin: "http://studio.test", "X-Forwarded-Host": "elsewhere.example" }), false)).toBe(false);
  });

  it("X-Forwarded-Host names the public host when TRUST_PROXY is on (first hop)", () => {
    expect(isCrossOriginMutation(post({ Origin: "https://studio.example", "X-Forwarded-Host": "studio.example" }), true)).toBe(false);
    expect(isCrossOriginMutation(post({ Origin: "https://studio.example", "X-Forwarded-Host": "studio.example, internal:3000" }), true)).toBe(false);
    expect(isCrossOriginMutation(post({ Origin: "https://evil.example", "X-Forwarded-Host": "studio.example" }), true)).toBe(true);
  });

  it("a write without Origin from another site (Sec-Fetch-Site) is refused", () => {
    expect(isCrossOriginMutation(post({ "Sec-Fetch-Site": "cross-site" }))).toBe(true);
    expect(isCrossOriginMutation(post({ "Sec-Fetch-Site": "same-site" }))).toBe(true);
    expect(isCrossOriginMutation(post({ "Sec-Fetch-Site": "Cross-Site" }, "DELETE"))).toBe(true);
    expect(isCrossOriginMutation(post({ "Sec-Fetch-Site": "same-origin" }))).toBe(false);
    expect(isCrossOriginMutation(post({ "Sec-Fetch-Site": "none" }))).toBe(false);
    // No browser at all (curl, a bearer client): nothing ambient to abuse.
    expect(isCrossOriginMutation(post({}))).toBe(false);
    // Reads are never refused.
    expect(isCrossOriginMutation(post({ "Sec-Fetch-Site": "cross-site" }, "GET"))).toBe(false);
  });
});
