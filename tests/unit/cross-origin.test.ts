import { afterEach, describe, expect, it } from "vitest";
import { isCrossOriginMutation, trustProxyEnabled } from "~/lib/security.server";

const post = (headers: Record<string, string>, method = "POST") =>
  new Request("http://studio.test/content/new", { method, headers: { Host: "studio.test", ...headers } });

describe("the cross-origin rule", () => {
  const saved = process.env.TRUST_PROXY;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = saved;
  });

  it("X-Forwarded-Host does not count when TRUST_PROXY is off", () => {
    for (const off of [undefined, "", "false", "0"]) {
      if (off === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = off;
      expect(trustProxyEnabled()).toBe(false);
      // Anyone can write X-Forwarded-Host: it must not make another site's Origin look like ours.
      expect(isCrossOriginMutation(post({ Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" }))).toBe(true);
      // Our own Origin still passes, whatever X-Forwarded-Host says.
      expect(isCrossOriginMutation(post({ Origin: "http://studio.test", "X-Forwarded-Host": "elsewhere.example" }))).toBe(false);
    }
  });

  it("X-Forwarded-Host names the public host when TRUST_PROXY is on (first hop)", () => {
    for (const on of ["true", "1", "loopback", "10.0.0.0/8"]) {
      process.env.TRUST_PROXY = on;
      expect(trustProxyEnabled()).toBe(true);
      expect(isCrossOriginMutation(post({ Origin: "https://studio.example", "X-Forwarded-Host": "studio.example" }))).toBe(false);
      expect(isCrossOriginMutation(post({ Origin: "https://studio.example", "X-Forwarded-Host": "studio.example, internal:3000" }))).toBe(false);
      expect(isCrossOriginMutation(post({ Origin: "https://evil.example", "X-Forwarded-Host": "studio.example" }))).toBe(true);
    }
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
