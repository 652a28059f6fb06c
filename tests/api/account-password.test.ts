import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser, PASSWORD, signInWithForm } from "../support/api";
import { apiLogin } from "../support/client.mjs";

const NEW_PASSWORD = "a brand new passphrase";
const meWithCookie = (cookie: string) =>
  fetch(`${baseUrl()}/api/auth/me`, { headers: { Cookie: cookie } }).then((response) => response.status);
const login = (email: string, password: string) => apiLogin(baseUrl(), email, { password });

describe("POST /api/account/password", () => {
  it("changes the password with the current one, ends every other session and keeps this one", async () => {
    const person = await newUser("password");
    const phone = (await login(person.email, PASSWORD)).body;
    const cookie = await signInWithForm(person.email);
    const changed = await api("/api/account/password", {
      json: { current_password: PASSWORD, new_password: NEW_PASSWORD },
      token: person.token,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ok: true, sessions_ended: 2, tokens_revoked: 0, shares_revoked: 0 });
    // This session goes on; the others are signed out at once.
    expect((await api("/api/auth/me", { token: person.token })).status).toBe(200);
    expect((await api("/api/auth/refresh", { json: { refresh_token: person.refreshToken } })).status).toBe(200);
    expect((await api("/api/auth/me", { token: phone.access_token })).status).toBe(401);
    expect((await api("/api/auth/refresh", { json: { refresh_token: phone.refresh_token } })).status).toBe(401);
    expect(await meWithCookie(cookie)).toBe(401);
    // The new password signs in, the old one no longer does.
    expect((await login(person.email, PASSWORD)).status).toBe(401);
    expect((await login(person.email, NEW_PASSWORD)).status).toBe(200);
  });

  it("through the cookie: the cookie's session goes on, the bearer sessions end", async () => {
    const person = await newUser("password");
    const cookie = await signInWithForm(person.email);
    const changed = await fetch(`${baseUrl()}/api/account/password`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ current_password: PASSWORD, new_password: NEW_PASSWORD }),
    });
    expect(changed.status).toBe(200);
    expect(await meWithCookie(cookie)).toBe(200);
    expect((await api("/api/auth/me", { token: person.token })).status).toBe(401);
  });

  it("a wrong current password is 400 with a detail, and nothing changes", async () => {
    const person = await newUser("password");
    const phone = (await login(person.email, PASSWORD)).body;
    const refused = await api("/api/account/password", {
      json: { current_password: "not my password", new_password: NEW_PASSWORD },
      token: person.token,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe("Your current password is incorrect.");
    expect((await api("/api/auth/me", { token: phone.access_token })).status).toBe(200);
    expect((await login(person.email, PASSWORD)).status).toBe(200);
  });

  it("a new password that breaks the rules gets the rule's message (400), and a missing field is 400", async () => {
    const person = await newUser("password");
    const short = await api("/api/account/password", {
      json: { current_password: PASSWORD, new_password: "short" },
      token: person.token,
    });
    expect(short.status).toBe(400);
    expect(short.body.detail).toBe("Password must be at least 8 characters");
    const long = await api("/api/account/password", {
      json: { current_password: PASSWORD, new_password: "x".repeat(257) },
      token: person.token,
    });
    expect(long.status).toBe(400);
    expect(long.body.detail).toBe("Password must be at most 256 characters");
    const missing = await api("/api/account/password", { json: { new_password: NEW_PASSWORD }, token: person.token });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toEqual(expect.any(String));
    expect((await login(person.email, PASSWORD)).status).toBe(200);
  });

  it("needs a signed-in caller, and only POST", async () => {
    expect(
      (await api("/api/account/password", { json: { current_password: PASSWORD, new_password: NEW_PASSWORD } })).status,
    ).toBe(401);
    const person = await newUser("password");
    expect((await api("/api/account/password", { token: person.token })).status).toBe(405);
  });

  describe("revoke_tokens: also revoke the personal API tokens", () => {
    const tokensOf = async (token: string) => (await api("/api/account/tokens", { token })).body.tokens as unknown[];
    async function withTokens(count: number) {
      const person = await newUser("password-tokens");
      const made = [];
      for (let index = 0; index < count; index++)
        made.push(
          (await api("/api/account/tokens", { json: { name: `script ${index}` }, token: person.token })).body
            .token as string,
        );
      return { person, made };
    }

    it("is on by default: every token is revoked with the change", async () => {
      const { person, made } = await withTokens(2);
      const changed = await api("/api/account/password", {
        json: { current_password: PASSWORD, new_password: NEW_PASSWORD },
        token: person.token,
      });
      expect(changed).toMatchObject({ status: 200, body: { ok: true, sessions_ended: 0, tokens_revoked: 2 } });
      for (const token of made) expect((await api("/api/auth/me", { token })).status).toBe(401);
      expect(await tokensOf(person.token)).toEqual([]);
    });

    it("true revokes them, false keeps them working", async () => {
      const kept = await withTokens(1);
      const keep = await api("/api/account/password", {
        json: { current_password: PASSWORD, new_password: NEW_PASSWORD, revoke_tokens: false },
        token: kept.person.token,
      });
      expect(keep).toMatchObject({ status: 200, body: { tokens_revoked: 0 } });
      expect((await api("/api/auth/me", { token: kept.made[0] })).status).toBe(200);
      expect(await tokensOf(kept.person.token)).toHaveLength(1);

      const ended = await withTokens(1);
      const revoke = await api("/api/account/password", {
        json: { current_password: PASSWORD, new_password: NEW_PASSWORD, revoke_tokens: true },
        token: ended.person.token,
      });
      expect(revoke).toMatchObject({ status: 200, body: { tokens_revoked: 1 } });
      expect((await api("/api/auth/me", { token: ended.made[0] })).status).toBe(401);
    });

    it("anything but a boolean is 400 with a detail, and nothing changes", async () => {
      const { person, made } = await withTokens(1);
      for (const revoke_tokens of ["yes", 1, null]) {
        const refused = await api("/api/account/password", {
          json: { current_password: PASSWORD, new_password: NEW_PASSWORD, revoke_tokens },
          token: person.token,
        });
        expect(refused, JSON.stringify(revoke_tokens)).toMatchObject({
          status: 400,
          body: { detail: "revoke_tokens must be true or false" },
        });
      }
      expect((await api("/api/auth/me", { token: made[0] })).status).toBe(200);
      expect((await login(person.email, PASSWORD)).status).toBe(200);
    });
  });

  describe("revoke_shares: also end the person's share links", () => {
    async function withLinks(count: number) {
      const person = await newUser("password-shares");
      const item = await api("/api/content", { json: { title: "Shared", body: "x" }, token: person.token });
      const urls: string[] = [];
      for (let index = 0; index < count; index++) {
        const made = await api("/api/shares", { json: { kind: "content", id: item.body.id }, token: person.token });
        expect(made.status).toBe(201);
        urls.push(made.body.url as string);
      }
      return { person, urls };
    }
    const statusOf = async (url: string) => (await fetch(url, { method: "HEAD" })).status;

    it("ends every link (410 at once) and says how many; off by default, the links stay", async () => {
      const kept = await withLinks(1);
      const unasked = await api("/api/account/password", {
        json: { current_password: PASSWORD, new_password: NEW_PASSWORD },
        token: kept.person.token,
      });
      expect(unasked).toMatchObject({ status: 200, body: { shares_revoked: 0 } });
      expect(await statusOf(kept.urls[0])).toBe(200);

      const { person, urls } = await withLinks(2);
      const changed = await api("/api/account/password", {
        json: { current_password: PASSWORD, new_password: NEW_PASSWORD, revoke_shares: true },
        token: person.token,
      });
      expect(changed).toMatchObject({ status: 200, body: { ok: true, shares_revoked: 2 } });
      for (const url of urls) expect(await statusOf(url)).toBe(410);
      expect((await api("/api/shares", { token: person.token })).body.shares).toEqual([]);
    });

    it("anything but a boolean is 400 with a detail, and nothing changes", async () => {
      const { person, urls } = await withLinks(1);
      for (const revoke_shares of ["yes", 1, null]) {
        const refused = await api("/api/account/password", {
          json: { current_password: PASSWORD, new_password: NEW_PASSWORD, revoke_shares },
          token: person.token,
        });
        expect(refused, JSON.stringify(revoke_shares)).toMatchObject({
          status: 400,
          body: { detail: "revoke_shares must be true or false" },
        });
      }
      expect(await statusOf(urls[0])).toBe(200);
      expect((await login(person.email, PASSWORD)).status).toBe(200);
    });

    it("the Account screen's box (a plain form): the links end and the toast says how many", async () => {
      const { person, urls } = await withLinks(2);
      const cookie = await signInWithForm(person.email);
      const account = await (await fetch(`${baseUrl()}/account`, { headers: { Cookie: cookie } })).text();
      expect(account).toMatch(/<input type="checkbox" name="revoke_shares"\/?>/);
      expect(account).toContain("Also end my share links");

      const changed = await fetch(`${baseUrl()}/account`, {
        method: "POST",
        headers: { Cookie: cookie },
        body: new URLSearchParams({
          intent: "password",
          current_password: PASSWORD,
          new_password: NEW_PASSWORD,
          confirm_password: NEW_PASSWORD,
          revoke_shares: "on",
        }),
        redirect: "manual",
      });
      expect(changed.status).toBe(302);
      expect(changed.headers.get("location")).toBe("/account");
      for (const url of urls) expect(await statusOf(url)).toBe(410);
      const toast = changed.headers
        .getSetCookie()
        .find((set) => /toast-session=/.test(set))!
        .split(";")[0];
      const shown = await (await fetch(`${baseUrl()}/account`, { headers: { Cookie: `${cookie}; ${toast}` } })).text();
      expect(shown).toContain("2 share links were ended.");
      expect(shown).toContain("No shared links yet.");
    });
  });
});
