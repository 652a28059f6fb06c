import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser, PASSWORD, signInWithForm } from "../support/api";

const REFUSED = { detail: "Personal API tokens cannot manage the account: sign in to do this." };

/** Personal API tokens (decision 0047): made, listed without the secret, used as a bearer token, revoked. */
describe("personal API tokens", () => {
  it("are made with a name (201, the token shown once), listed without the secret, and work on /api", async () => {
    const person = await newUser("tokens");
    const made = await api("/api/account/tokens", { json: { name: "  Backup script  " }, token: person.token });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      id: expect.any(String),
      name: "Backup script",
      token: expect.stringMatching(/^cas_[\w-]{40,}$/),
    });

    const listed = await api("/api/account/tokens", { token: person.token });
    expect(listed.status).toBe(200);
    expect(listed.body.tokens).toEqual([
      { id: made.body.id, name: "Backup script", created_at: expect.any(String), last_used_at: null },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.token);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.token.slice(4));

    // The token is a bearer token on any /api call, as the person.
    const me = await api("/api/auth/me", { token: made.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: person.id, email: person.email });
    const created = await api("/api/content", { json: { title: "From a script", body: "" }, token: made.body.token });
    expect(created.status).toBeLessThan(300);
    const content = await api("/api/content", { token: person.token });
    expect(JSON.stringify(content.body)).toContain("From a script");
    // ...and its use is dated.
    const after = await api("/api/account/tokens", { token: person.token });
    expect(after.body.tokens[0].last_used_at).toEqual(expect.any(String));
  });

  it("a revoked token is refused at once (401); revoking it again is 404", async () => {
    const person = await newUser("tokens");
    const made = await api("/api/account/tokens", { json: { name: "CI" }, token: person.token });
    expect((await api("/api/auth/me", { token: made.body.token })).status).toBe(200);
    const revoked = await api(`/api/account/tokens/${made.body.id}`, { method: "DELETE", token: person.token });
    expect(revoked.status).toBe(204);
    const refused = await api("/api/auth/me", { token: made.body.token });
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toEqual(expect.any(String));
    expect((await api("/api/account/tokens", { token: person.token })).body.tokens).toEqual([]);
    expect((await api(`/api/account/tokens/${made.body.id}`, { method: "DELETE", token: person.token })).status).toBe(
      404,
    );
  });

  it("are scoped to their person: another person's token id is 404 and stays working; their list is their own", async () => {
    const owner = await newUser("tokens");
    const other = await newUser("tokens");
    const made = await api("/api/account/tokens", { json: { name: "Owner's" }, token: owner.token });
    expect((await api(`/api/account/tokens/${made.body.id}`, { method: "DELETE", token: other.token })).status).toBe(
      404,
    );
    expect((await api("/api/account/tokens", { token: other.token })).body.tokens).toEqual([]);
    expect((await api("/api/auth/me", { token: made.body.token })).body.id).toBe(owner.id);
  });

  it("refuses a blank, missing or too long name with 400 and a detail", async () => {
    const person = await newUser("tokens");
    for (const json of [{ name: "   " }, {}, { name: "x".repeat(101) }, { name: 5 }]) {
      const answer = await api("/api/account/tokens", { json, token: person.token });
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(answer.body.detail).toEqual(expect.any(String));
    }
    expect((await api("/api/account/tokens", { json: { name: "x".repeat(100) }, token: person.token })).status).toBe(
      201,
    );
  });

  it("allows at most 50 per person, then 409 with a detail until one is revoked", async () => {
    const person = await newUser("tokens");
    const made = [];
    for (let index = 0; index < 50; index++) {
      const answer = await api("/api/account/tokens", { json: { name: `token ${index}` }, token: person.token });
      expect(answer.status).toBe(201);
      made.push(answer.body.id as string);
    }
    const refused = await api("/api/account/tokens", { json: { name: "one too many" }, token: person.token });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/50/);
    expect((await api(`/api/account/tokens/${made[0]}`, { method: "DELETE", token: person.token })).status).toBe(204);
    expect(
      (await api("/api/account/tokens", { json: { name: "now there is room" }, token: person.token })).status,
    ).toBe(201);
  });

  it("need a signed-in caller, and a made-up cas_ token is 401", async () => {
    expect((await api("/api/account/tokens")).status).toBe(401);
    expect((await api("/api/account/tokens", { json: { name: "x" } })).status).toBe(401);
    expect((await api("/api/auth/me", { token: "cas_not-a-real-token" })).status).toBe(401);
  });

  it("cannot manage the account: every credential call made with one is 403 with a detail, and nothing changes", async () => {
    const person = await newUser("tokens-scope");
    const script = (await api("/api/account/tokens", { json: { name: "Leaked script" }, token: person.token })).body;
    const other = (await api("/api/account/tokens", { json: { name: "Other script" }, token: person.token })).body;
    const sessionId = (await api("/api/account/sessions", { token: person.token })).body.sessions[0].id as string;

    const calls: [string, { method?: string; json?: unknown }][] = [
      ["/api/account/tokens", { json: { name: "More for me" } }],
      [`/api/account/tokens/${other.id}`, { method: "DELETE" }],
      [`/api/account/tokens/${script.id}`, { method: "DELETE" }],
      ["/api/account/sessions", {}],
      ["/api/account/sessions", { method: "DELETE" }],
      [`/api/account/sessions/${sessionId}`, { method: "DELETE" }],
      ["/api/account/password", { json: { current_password: PASSWORD, new_password: "taken over by a script" } }],
    ];
    for (const [path, init] of calls) {
      const answer = await api(path, { ...init, token: script.token });
      expect(answer.status, `${init.method ?? (init.json ? "POST" : "GET")} ${path}`).toBe(403);
      expect(answer.body).toEqual(REFUSED);
    }

    // Nothing changed: both tokens and the session live, the password is the old one.
    expect((await api("/api/auth/me", { token: other.token })).status).toBe(200);
    expect((await api("/api/auth/me", { token: person.token })).status).toBe(200);
    expect((await api("/api/account/tokens", { token: person.token })).body.tokens).toHaveLength(2);
    expect((await api("/api/auth/login", { json: { email: person.email, password: PASSWORD } })).status).toBe(200);
    // Scripts keep their other uses: reading who they are and the token list (no secret in it).
    expect((await api("/api/auth/me", { token: script.token })).status).toBe(200);
    expect((await api("/api/account/tokens", { token: script.token })).status).toBe(200);
  });

  it("cannot log out: /api/auth/logout with one is 400 with a detail that says how to revoke it, and nothing ends", async () => {
    const person = await newUser("tokens-logout");
    const script = (await api("/api/account/tokens", { json: { name: "Logout script" }, token: person.token })).body;
    for (const json of [undefined, {}, { refresh_token: person.refreshToken }]) {
      const answer = await api("/api/auth/logout", { method: "POST", json, token: script.token });
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(answer.body).toEqual({
        detail:
          "A personal API token is not a session and cannot log out: revoke it on the Account screen, or with DELETE /api/account/tokens/{id} from a signed-in session.",
      });
    }
    // Nothing ended: the token, the person's session and the refresh token the body named all live.
    expect((await api("/api/auth/me", { token: script.token })).status).toBe(200);
    expect((await api("/api/auth/me", { token: person.token })).status).toBe(200);
    const refreshed = await api("/api/auth/refresh", { json: { refresh_token: person.refreshToken } });
    expect(refreshed.status).toBe(200);
    // What the detail says ends it.
    const session = refreshed.body.access_token as string;
    expect((await api(`/api/account/tokens/${script.id}`, { method: "DELETE", token: session })).status).toBe(204);
    expect((await api("/api/auth/me", { token: script.token })).status).toBe(401);
  });

  it("a signed-in session manages them: the login's bearer token and the cookie alike", async () => {
    const person = await newUser("tokens-scope");
    const cookie = await signInWithForm(person.email);
    const withCookie = (path: string, init: RequestInit = {}) =>
      fetch(`${baseUrl()}${path}`, {
        ...init,
        headers: { Cookie: cookie, "Content-Type": "application/json", ...init.headers },
      });
    const made = await withCookie("/api/account/tokens", {
      method: "POST",
      body: JSON.stringify({ name: "Made with the cookie" }),
    });
    expect(made.status).toBe(201);
    const { id } = await made.json();
    expect((await withCookie("/api/account/sessions")).status).toBe(200);
    expect((await withCookie(`/api/account/tokens/${id}`, { method: "DELETE" })).status).toBe(204);

    const byBearer = await api("/api/account/tokens", { json: { name: "Made with the bearer" }, token: person.token });
    expect(byBearer.status).toBe(201);
    expect(
      (await api(`/api/account/tokens/${byBearer.body.id}`, { method: "DELETE", token: person.token })).status,
    ).toBe(204);
    expect((await api("/api/account/sessions", { token: person.token })).body.sessions).toHaveLength(2);
    expect((await api("/api/account/sessions", { method: "DELETE", token: person.token })).body).toEqual({
      sessions_ended: 1,
    });
  });
});
