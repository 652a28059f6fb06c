import { createCookie, createCookieSessionStorage, type CookieOptions } from "react-router";
import { describe, expect, it } from "vitest";
import { createSignedCookie } from "~/lib/screens/signed-cookie.server";

// app/lib/screens/signed-cookie.server.ts must write exactly what React Router's createCookie writes and read
// whatever it reads, so cookies browsers already hold stay valid across the change (and back).
const SECRET = "signed-cookie-test-secret-0123456789";
const OPTIONS: CookieOptions = {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: true,
  secrets: [SECRET],
  maxAge: 30 * 86_400,
};

const VALUES: unknown[] = [
  { accessToken: "eyJhbGciOiJIUzI1NiJ9.e30.abc", refreshToken: "r".repeat(300) },
  { theme: "light", plan: "Pro", toolsOpen: false, toolOrder: ["voices", "music"] },
  { __flash_flash__: { toast: { message: "Ünïcödé ✓ 日本語 🎬 <b>&amp;</b> ; = %", type: "success" } } },
  {},
  "plain string",
  0,
  null,
  [1, "two", { three: 3 }],
];

const header = (setCookie: string) => setCookie.split(";")[0];

describe("createSignedCookie is React Router's cookie format", () => {
  it("serializes byte for byte as React Router does, with and without serialize options", async () => {
    const ours = createSignedCookie("__session", OPTIONS);
    const theirs = createCookie("__session", OPTIONS);
    for (const value of VALUES) {
      expect(await ours.serialize(value)).toBe(await theirs.serialize(value));
      const destroy = { maxAge: undefined, expires: new Date(0) };
      expect(await ours.serialize("", destroy)).toBe(await theirs.serialize("", destroy));
      const until = {
        expires: new Date("2030-01-02T03:04:05Z"),
        maxAge: 10,
        sameSite: "strict" as const,
        priority: "high" as const,
      };
      expect(await ours.serialize(value, until)).toBe(await theirs.serialize(value, until));
    }
    expect(ours.isSigned).toBe(true);
    expect(ours.name).toBe("__session");
  });

  it("reads what React Router wrote, and React Router reads what it writes", async () => {
    const ours = createSignedCookie("toast-session", OPTIONS);
    const theirs = createCookie("toast-session", OPTIONS);
    for (const value of VALUES) {
      const fromThem = `other=1; ${header(await theirs.serialize(value))}; later=2`;
      expect(await ours.parse(fromThem)).toEqual(await theirs.parse(fromThem));
      const fromUs = header(await ours.serialize(value));
      expect(await theirs.parse(fromUs)).toEqual(value);
    }
  });

  it("answers as React Router for absent, empty, tampered, unsigned and duplicated cookies", async () => {
    const ours = createSignedCookie("studio_prefs", OPTIONS);
    const theirs = createCookie("studio_prefs", OPTIONS);
    const good = header(await theirs.serialize({ theme: "light" }));
    const value = good.slice("studio_prefs=".length);
    const tampered = value.replace(/^./, (c) => (c === "e" ? "f" : "e"));
    const unsigned = Buffer.from(JSON.stringify({ theme: "light" })).toString("base64");
    const headers = [
      null,
      "",
      "a=b",
      "studio_prefs=",
      `studio_prefs=${tampered}`,
      `studio_prefs=${unsigned}`,
      `studio_prefs=${value.split(".")[0]}.`,
      `studio_prefs=${value}garbage`,
      `  studio_prefs = ${value} ;x=y`,
      `studio_prefs=${value}; studio_prefs=${tampered}`,
      `studio_prefs=${tampered}; studio_prefs=${value}`,
      `xstudio_prefs=${value}`,
      `noequals; studio_prefs=${value}`,
      `studio_prefs=%E0%A4%A`,
    ];
    for (const cookieHeader of headers)
      expect(await ours.parse(cookieHeader), String(cookieHeader)).toEqual(await theirs.parse(cookieHeader));
  });

  it("signs with the first secret and accepts any (rotation)", async () => {
    const oldCookie = header(
      await createCookie("__session", { ...OPTIONS, secrets: ["old-secret"] }).serialize({ a: 1 }),
    );
    const rotated = createSignedCookie("__session", { ...OPTIONS, secrets: ["new-secret", "old-secret"] });
    expect(await rotated.parse(oldCookie)).toEqual({ a: 1 });
    const written = header(await rotated.serialize({ a: 2 }));
    expect(await createCookie("__session", { ...OPTIONS, secrets: ["new-secret"] }).parse(written)).toEqual({ a: 2 });
    expect(await createSignedCookie("__session", { ...OPTIONS, secrets: ["another"] }).parse(written)).toBeNull();
  });

  it("serves as createCookieSessionStorage's cookie", async () => {
    const ours = createCookieSessionStorage({ cookie: createSignedCookie("__session", OPTIONS) });
    const theirs = createCookieSessionStorage({ cookie: { name: "__session", ...OPTIONS } });
    const session = await theirs.getSession();
    session.set("accessToken", "a");
    session.flash("note", "once");
    const committed = await theirs.commitSession(session);
    expect(await ours.commitSession(await ours.getSession(header(committed)))).toBe(committed);
    const read = await ours.getSession(header(committed));
    expect(read.get("accessToken")).toBe("a");
    expect(read.get("note")).toBe("once");
    expect(await ours.destroySession(read)).toBe(await theirs.destroySession(read));
  });
});

describe("readPreferences", () => {
  it("hands out its own object even for an empty cookie (the preferences action changes it)", async () => {
    const { readPreferences } = await import("~/lib/screens/preferences.server");
    const { DEFAULT_PREFERENCES } = await import("~/common/tools");
    const request = (cookie?: string) =>
      new Request("http://studio.test/", { headers: cookie ? { Cookie: cookie } : {} });
    for (const cookie of [undefined, "studio_prefs=", "studio_prefs=nonsense"]) {
      const preferences = await readPreferences(request(cookie));
      expect(preferences).toEqual(DEFAULT_PREFERENCES);
      preferences.theme = preferences.theme === "dark" ? "light" : "dark";
    }
    expect((await readPreferences(request())).theme).toBe(DEFAULT_PREFERENCES.theme);
    expect(DEFAULT_PREFERENCES.theme).toBe("dark");
  });
});

describe("__Host- cookies", () => {
  it("hostCookieName: __Host-<name> when Secure, the name as it is otherwise", async () => {
    const { hostCookieName } = await import("~/lib/screens/signed-cookie.server");
    expect(hostCookieName("__session", true)).toBe("__Host-session");
    expect(hostCookieName("toast-session", true)).toBe("__Host-toast-session");
    expect(hostCookieName("__session", false)).toBe("__session");
  });

  it("a __Host- cookie must be Secure, with Path=/ and no Domain (browsers drop it otherwise)", () => {
    expect(() => createSignedCookie("__Host-a", { ...OPTIONS, secure: false })).toThrow(/must be Secure/);
    expect(() => createSignedCookie("__Host-b", { ...OPTIONS, path: "/app" })).toThrow(/must be Secure/);
    expect(() => createSignedCookie("__Host-c", { ...OPTIONS, domain: "studio.test" })).toThrow(/must be Secure/);
    expect(createSignedCookie("__Host-d", OPTIONS).name).toBe("__Host-d");
  });

  it("dropOldCookies: the old cookie is never read, only expired, even beside the new one", async () => {
    const { dropOldCookies } = await import("~/lib/screens/signed-cookie.server");
    const renamed = createSignedCookie("__Host-moved", { ...OPTIONS, renamedFrom: "moved" });
    const value = header(await renamed.serialize({ a: 1 })).slice("__Host-moved=".length);
    const expiry = "moved=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax";

    const request = new Request("http://studio.test/", { headers: { Cookie: `other=1; moved=${value}` } });
    const old = dropOldCookies(request)!;
    // Not promoted: no reader of the request finds the value under either name.
    expect(request.headers.get("Cookie")).toBe("other=1");
    expect(await renamed.parse(request.headers.get("Cookie"))).toBeNull();
    expect(old.expiredCookies()).toEqual([expiry]);

    const only = new Request("http://studio.test/", { headers: { Cookie: `moved=${value}` } });
    expect(dropOldCookies(only)!.expiredCookies()).toEqual([expiry]);
    expect(only.headers.has("Cookie")).toBe(false);

    const both = new Request("http://studio.test/", {
      headers: { Cookie: `moved=planted; __Host-moved=${value}; moved=again` },
    });
    expect(dropOldCookies(both)!.expiredCookies()).toEqual([expiry]);
    expect(await renamed.parse(both.headers.get("Cookie"))).toEqual({ a: 1 });

    expect(
      dropOldCookies(new Request("http://studio.test/", { headers: { Cookie: `__Host-moved=${value}` } })),
    ).toBeNull();
  });
});
