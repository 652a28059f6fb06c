import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser, PASSWORD, signInWithForm } from "../support/api";

/** The /account screen's plain forms (JavaScript off): intents posted to its own action. */
const post = (cookie: string, fields: Record<string, string>) =>
  fetch(`${baseUrl()}/account`, {
    method: "POST",
    headers: { Cookie: cookie },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });

describe("the account screen's forms", () => {
  it("needs sign-in", async () => {
    const page = await fetch(`${baseUrl()}/account`, { redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/login\?redirectTo=%2Faccount/);
  });

  it("password: a wrong current password is 400 beside its field; a mismatch too; success redirects back with a toast and keeps this session", async () => {
    const person = await newUser("screen");
    const cookie = await signInWithForm(person.email);
    const wrong = await post(cookie, {
      intent: "password",
      current_password: "nope",
      new_password: "a new passphrase",
      confirm_password: "a new passphrase",
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toMatch(/id="current_password-error"[^>]*>Your current password is incorrect\./);
    const mismatch = await post(cookie, {
      intent: "password",
      current_password: PASSWORD,
      new_password: "a new passphrase",
      confirm_password: "another one",
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Passwords do not match.");
    const short = await post(cookie, {
      intent: "password",
      current_password: PASSWORD,
      new_password: "short",
      confirm_password: "short",
    });
    expect(short.status).toBe(400);
    expect(await short.text()).toMatch(/id="new_password-error"[^>]*>Password must be at least 8 characters/);

    const changed = await post(cookie, {
      intent: "password",
      current_password: PASSWORD,
      new_password: "a new passphrase",
      confirm_password: "a new passphrase",
    });
    expect(changed.status).toBe(302);
    expect(changed.headers.get("location")).toBe("/account");
    expect(changed.headers.getSetCookie().some((set) => /toast-session=/.test(set))).toBe(true);
    expect((await fetch(`${baseUrl()}/api/auth/me`, { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await api("/api/auth/me", { token: person.token })).status).toBe(401);
  });

  it("create-token answers the page with the token once (201); a blank name is 400 beside the field", async () => {
    const person = await newUser("screen");
    const cookie = await signInWithForm(person.email);
    const blank = await post(cookie, { intent: "create-token", name: "   " });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toMatch(/id="token-name-error"[^>]*>Enter a name for the token/);
    const made = await post(cookie, { intent: "create-token", name: "From the form" });
    expect(made.status).toBe(201);
    const token = /value="(cas_[\w-]+)"/.exec(await made.text())?.[1];
    expect(token).toBeDefined();
    expect((await api("/api/auth/me", { token })).status).toBe(200);
    const page = await (await fetch(`${baseUrl()}/account`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain("From the form");
    expect(page).not.toContain(token);
  });

  it("revoke-session and revoke-token are scoped to the person: another's id changes nothing", async () => {
    const owner = await newUser("screen");
    const stranger = await newUser("screen");
    const strangerCookie = await signInWithForm(stranger.email);
    const [ownerSession] = (await api("/api/account/sessions", { token: owner.token })).body.sessions;
    const ownerToken = (await api("/api/account/tokens", { json: { name: "Owner's" }, token: owner.token })).body;
    const session = await post(strangerCookie, { intent: "revoke-session", id: ownerSession.id, confirmed: "1" });
    expect(session.status).toBe(302);
    const token = await post(strangerCookie, { intent: "revoke-token", id: ownerToken.id, confirmed: "1" });
    expect(token.status).toBe(302);
    expect((await api("/api/auth/me", { token: owner.token })).status).toBe(200);
    expect((await api("/api/auth/me", { token: ownerToken.token })).status).toBe(200);
    // With the fetcher's field, the refusal is 404 data.
    const enhanced = await post(strangerCookie, { intent: "revoke-token", id: ownerToken.id, enhanced: "1" });
    expect(enhanced.status).toBe(404);
  });
});
