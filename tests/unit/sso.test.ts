import { describe, expect, it } from "vitest";
import { parseSettings, SettingsError } from "~/lib/settings/env.server";
import { publicOrigin } from "~/lib/http/public-origin.server";
import { loginWithPassword } from "~/models/accounts/credentials.server";
import { accountForVerifiedEmail } from "~/models/accounts/sso.server";
import { disablePerson, enablePerson } from "~/models/operators/operator.server";
import { createInvitation } from "~/models/accounts/invitation.server";
import { createUser } from "~/models/accounts/user.server";

const email = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;
const OIDC = {
  OIDC_ISSUER: "https://id.example.com/realms/studio",
  OIDC_CLIENT_ID: "studio",
  OIDC_CLIENT_SECRET: "s3cret-value",
};

function problemsOf(source: Record<string, string>): string[] {
  try {
    parseSettings(source);
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
  return [];
}

describe("single sign-on settings", () => {
  it("are off by default, on with issuer, client id and secret, and OIDC_NAME names the button", () => {
    expect(parseSettings({}).oidc).toBeNull();
    expect(parseSettings(OIDC).oidc).toEqual({
      issuer: OIDC.OIDC_ISSUER,
      clientId: "studio",
      clientSecret: "s3cret-value",
      name: "SSO",
    });
    expect(parseSettings({ ...OIDC, OIDC_NAME: "Keycloak" }).oidc?.name).toBe("Keycloak");
    // The issuer identifier is kept as written: Authentik's ends with a slash, and discovery compares it exactly.
    expect(parseSettings({ ...OIDC, OIDC_ISSUER: "https://auth.example.com/application/o/studio/" }).oidc?.issuer).toBe(
      "https://auth.example.com/application/o/studio/",
    );
  });

  it("refuse a partial set with a message naming what is missing, and never print the secret", () => {
    expect(problemsOf({ OIDC_ISSUER: OIDC.OIDC_ISSUER })).toEqual([
      "OIDC_CLIENT_ID must be set too: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET together (OIDC_ISSUER is set), or none of them",
      "OIDC_CLIENT_SECRET must be set too: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET together (OIDC_ISSUER is set), or none of them",
    ]);
    const problems = problemsOf({ OIDC_CLIENT_ID: "studio", OIDC_CLIENT_SECRET: "do-not-print-me" });
    expect(problems).toEqual([
      "OIDC_ISSUER must be set too: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET together (OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set), or none of them",
    ]);
    expect(problems.join("\n")).not.toContain("do-not-print-me");
  });

  it("want an https issuer; plain http only on this machine", () => {
    expect(problemsOf({ ...OIDC, OIDC_ISSUER: "http://id.example.com" })[0]).toMatch(
      /^OIDC_ISSUER must be an https URL \(http only on this machine/,
    );
    expect(problemsOf({ ...OIDC, OIDC_ISSUER: "not a url" })[0]).toMatch(/^OIDC_ISSUER must be an https URL/);
    expect(problemsOf({ ...OIDC, OIDC_ISSUER: "https://id.example.com/?realm=x" })[0]).toMatch(/^OIDC_ISSUER must be/);
    for (const issuer of ["http://127.0.0.1:9000", "http://localhost:8080/realms/dev", "http://[::1]:9000"]) {
      expect(parseSettings({ ...OIDC, OIDC_ISSUER: issuer }).oidc?.issuer).toBe(issuer);
    }
  });

  it("PUBLIC_URL is an http(s) URL, kept without its trailing slash", () => {
    expect(parseSettings({}).publicUrl).toBeNull();
    expect(parseSettings({ PUBLIC_URL: "https://studio.example.com/" }).publicUrl).toBe("https://studio.example.com");
    expect(problemsOf({ PUBLIC_URL: "studio.example.com" })).toEqual([
      'PUBLIC_URL must be an http(s) URL, got "studio.example.com"',
    ]);
  });

  it("REGISTRATION is open by default, and an unknown value stops the start", () => {
    expect(parseSettings({}).registration).toBe("open");
    expect(parseSettings({ REGISTRATION: "Invite" }).registration).toBe("invite");
    expect(parseSettings({ REGISTRATION: "closed" }).registration).toBe("closed");
    expect(problemsOf({ REGISTRATION: "cloesd" })).toHaveLength(1);
  });
});

describe("the public origin (the redirect URI's)", () => {
  const request = (headers: Record<string, string> = {}) =>
    new Request("http://10.0.0.5:3000/auth/oidc", { headers: { Host: "10.0.0.5:3000", ...headers } });

  it("is PUBLIC_URL when set, whatever the request says", () => {
    expect(
      publicOrigin(request({ "X-Forwarded-Host": "evil.example" }), {
        trustProxy: true,
        publicUrl: "https://studio.example.com",
      }),
    ).toBe("https://studio.example.com");
  });

  it("is the request's own origin otherwise; a proxy's X-Forwarded-Proto and -Host count only when trusted", () => {
    const proxied = request({ "X-Forwarded-Proto": "https", "X-Forwarded-Host": "studio.example.com, inner.local" });
    expect(publicOrigin(proxied, { trustProxy: false, publicUrl: null })).toBe("http://10.0.0.5:3000");
    expect(publicOrigin(proxied, { trustProxy: true, publicUrl: null })).toBe("https://studio.example.com");
    expect(publicOrigin(request({ "X-Forwarded-Proto": "gopher" }), { trustProxy: true, publicUrl: null })).toBe(
      "http://10.0.0.5:3000",
    );
  });
});

describe("the account a verified email names", () => {
  it("is the existing one, password accounts included; the password still works", async () => {
    const address = email("known");
    const user = await createUser(address, "correct horse battery");
    for (const mode of ["open", "invite", "closed"] as const) {
      expect(await accountForVerifiedEmail(address, "127.0.0.1", mode)).toEqual({ ok: true, user, created: false });
    }
    expect(await loginWithPassword(address, "correct horse battery", "127.0.0.1")).toEqual({ ok: true, user });
  });

  it("is refused while the operator has disabled it, and signs in again once enabled", async () => {
    const address = email("disabled");
    const user = await createUser(address, "correct horse battery");
    await disablePerson(user.id);
    expect(await accountForVerifiedEmail(address, "127.0.0.1", "open")).toEqual({ ok: false, reason: "disabled" });
    await enablePerson(user.id);
    expect(await accountForVerifiedEmail(address, "127.0.0.1", "open")).toEqual({ ok: true, user, created: false });
  });

  it("is a new one when registration is open, and the same one on the next sign-in", async () => {
    const address = email("new");
    const first = await accountForVerifiedEmail(address, "127.0.0.1", "open");
    expect(first).toMatchObject({ ok: true, created: true, user: { email: address } });
    const second = await accountForVerifiedEmail(address, "127.0.0.1", "open");
    expect(second).toEqual({ ok: true, created: false, user: first.ok ? first.user : null });
  });

  it("is none in invite and closed modes: nothing is created", async () => {
    const address = email("stranger");
    expect(await accountForVerifiedEmail(address, "127.0.0.1", "invite")).toEqual({
      ok: false,
      reason: "unknown",
      mode: "invite",
    });
    expect(await accountForVerifiedEmail(address, "127.0.0.1", "closed")).toEqual({
      ok: false,
      reason: "unknown",
      mode: "closed",
    });
    expect(await accountForVerifiedEmail(address, "127.0.0.1", "open")).toMatchObject({ ok: true, created: true });
  });

  it("in invite mode is a new account for a sign-on that began from a usable invitation, once", async () => {
    const { code } = await createInvitation(1);
    const first = email("invitee");
    expect(await accountForVerifiedEmail(email("wrong-code"), "127.0.0.1", "invite", "not-a-code")).toEqual({
      ok: false,
      reason: "invitation",
    });
    const created = await accountForVerifiedEmail(first, "127.0.0.1", "invite", code);
    expect(created).toMatchObject({ ok: true, created: true, user: { email: first } });
    // The invitation is spent: a second stranger with the same link gets nothing; the invitee signs in again.
    expect(await accountForVerifiedEmail(email("second"), "127.0.0.1", "invite", code)).toEqual({
      ok: false,
      reason: "invitation",
    });
    expect(await accountForVerifiedEmail(first, "127.0.0.1", "invite", code)).toMatchObject({
      ok: true,
      created: false,
    });
    // Closed stays closed whatever a link carries.
    const other = await createInvitation(1);
    expect(await accountForVerifiedEmail(email("closed"), "127.0.0.1", "closed", other.code)).toEqual({
      ok: false,
      reason: "unknown",
      mode: "closed",
    });
  });

  it("is one account when two sign-ins of a new email race", async () => {
    const address = email("race");
    const [a, b] = await Promise.all([
      accountForVerifiedEmail(address, "127.0.0.1", "open"),
      accountForVerifiedEmail(address, "127.0.0.1", "open"),
    ]);
    expect(a.ok && b.ok && a.user.id === b.user.id).toBe(true);
  });

  it("counts a new account against the address's registrations (REGISTER_MAX_PER_ADDRESS)", async () => {
    const address = "203.0.113.77";
    let last;
    for (let i = 0; i <= 20; i++) last = await accountForVerifiedEmail(email(`flood${i}`), address, "open");
    expect(last).toMatchObject({ ok: false, reason: "throttled" });
  });
});
