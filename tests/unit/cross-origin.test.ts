import { describe, expect, it } from "vitest";
import { publicOrigin } from "~/lib/http/public-origin.server";
import {
  isCrossOriginMutation,
  requestScheme,
  strictTransportSecurity,
  trustProxyEnabled,
} from "~/lib/http/security.server";

const post = (headers: Record<string, string>, method = "POST") =>
  new Request("http://studio.test/content/new", { method, headers: { Host: "studio.test", ...headers } });

describe("the cross-origin rule", () => {
  it("TRUST_PROXY is off by default (the unit tests run without it)", () => {
    expect(trustProxyEnabled()).toBe(false);
  });

  it("X-Forwarded-Host does not count when TRUST_PROXY is off", () => {
    // Anyone can write X-Forwarded-Host: it must not make another site's Origin look like ours.
    expect(isCrossOriginMutation(post({ Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" }))).toBe(
      true,
    );
    expect(
      isCrossOriginMutation(post({ Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" }), false),
    ).toBe(true);
    // Our own Origin still passes, whatever X-Forwarded-Host says.
    expect(
      isCrossOriginMutation(post({ Origin: "http://studio.test", "X-Forwarded-Host": "elsewhere.example" }), false),
    ).toBe(false);
  });

  it("X-Forwarded-Host names the public host when TRUST_PROXY is on (first hop)", () => {
    const https = { "X-Forwarded-Proto": "https" };
    expect(
      isCrossOriginMutation(
        post({ Origin: "https://studio.example", "X-Forwarded-Host": "studio.example", ...https }),
        true,
      ),
    ).toBe(false);
    expect(
      isCrossOriginMutation(
        post({ Origin: "https://studio.example", "X-Forwarded-Host": "studio.example, internal:3000", ...https }),
        true,
      ),
    ).toBe(false);
    expect(
      isCrossOriginMutation(
        post({ Origin: "https://evil.example", "X-Forwarded-Host": "studio.example", ...https }),
        true,
      ),
    ).toBe(true);
  });

  it("compares the scheme too: http://host and https://host are different origins", () => {
    // No proxy, no PUBLIC_URL: the connection's own scheme (http here).
    expect(isCrossOriginMutation(post({ Origin: "http://studio.test" }), false, null)).toBe(false);
    expect(isCrossOriginMutation(post({ Origin: "https://studio.test" }), false, null)).toBe(true);
    // A server that speaks TLS itself.
    const tls = new Request("https://studio.test/content/new", {
      method: "POST",
      headers: { Host: "studio.test", Origin: "http://studio.test" },
    });
    expect(isCrossOriginMutation(tls, false, null)).toBe(true);
    // PUBLIC_URL's scheme counts when set: a plain-HTTP page cannot post to the HTTPS studio.
    expect(isCrossOriginMutation(post({ Origin: "http://studio.test" }), false, "https://studio.test")).toBe(true);
    expect(isCrossOriginMutation(post({ Origin: "https://studio.test" }), false, "https://studio.test")).toBe(false);
    expect(isCrossOriginMutation(post({ Origin: "http://studio.test" }), false, "http://studio.test")).toBe(false);
  });

  it("a trusted proxy's X-Forwarded-Proto is the scheme (first hop); an untrusted one's says nothing", () => {
    const behindTls = { "X-Forwarded-Proto": "https" };
    expect(isCrossOriginMutation(post({ Origin: "https://studio.test", ...behindTls }), true, null)).toBe(false);
    expect(isCrossOriginMutation(post({ Origin: "http://studio.test", ...behindTls }), true, null)).toBe(true);
    expect(
      isCrossOriginMutation(post({ Origin: "https://studio.test", "X-Forwarded-Proto": "HTTPS, http" }), true, null),
    ).toBe(false);
    // The proxy's word for this request wins over PUBLIC_URL's.
    expect(
      isCrossOriginMutation(
        post({ Origin: "http://studio.test", "X-Forwarded-Proto": "http" }),
        true,
        "https://studio.test",
      ),
    ).toBe(false);
    expect(
      isCrossOriginMutation(post({ Origin: "http://studio.test", ...behindTls }), true, "http://studio.test"),
    ).toBe(true);
    // TRUST_PROXY off: anyone's X-Forwarded-Proto is ignored both ways.
    expect(isCrossOriginMutation(post({ Origin: "https://studio.test", ...behindTls }), false, null)).toBe(true);
    expect(isCrossOriginMutation(post({ Origin: "http://studio.test", ...behindTls }), false, null)).toBe(false);
    // Anything but http or https from the proxy is no scheme.
    expect(requestScheme(post({ "X-Forwarded-Proto": "gopher" }), { trustProxy: true, publicUrl: null })).toBe("http");
  });

  it("publicOrigin and the cross-origin check agree on the scheme", () => {
    const request = post({ "X-Forwarded-Proto": "https", "X-Forwarded-Host": "studio.example" });
    expect(publicOrigin(request, { trustProxy: true, publicUrl: null })).toBe("https://studio.example");
    expect(
      isCrossOriginMutation(
        post({
          Origin: publicOrigin(request, { trustProxy: true, publicUrl: null }),
          "X-Forwarded-Proto": "https",
          "X-Forwarded-Host": "studio.example",
        }),
        true,
        null,
      ),
    ).toBe(false);
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

describe("Strict-Transport-Security", () => {
  it("always when PUBLIC_URL is https, else only on a trusted proxy's X-Forwarded-Proto: https", () => {
    const hsts = "max-age=31536000; includeSubDomains";
    expect(strictTransportSecurity(undefined, "203.0.113.9", "https://studio.example")).toBe(hsts);
    expect(strictTransportSecurity("http", "127.0.0.1", "https://studio.example")).toBe(hsts);
    expect(strictTransportSecurity(undefined, "127.0.0.1", "http://studio.example")).toBeNull();
    expect(strictTransportSecurity(undefined, "127.0.0.1", null)).toBeNull();
    // TRUST_PROXY is off in the unit tests: the header is anyone's word (tests/api/transport.test.ts has the trusted proxy).
    expect(strictTransportSecurity("https", "127.0.0.1", null)).toBeNull();
  });
});
