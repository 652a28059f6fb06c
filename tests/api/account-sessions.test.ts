import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser, signInWithForm } from "../support/api";
import { apiLogin } from "../support/client.mjs";

const CHROME_ON_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** Another sign-in of the same person, from the given User-Agent: its token pair. */
async function signInAgain(email: string, userAgent = CHROME_ON_LINUX) {
  const login = await apiLogin(baseUrl(), email, { headers: { "User-Agent": userAgent } });
  expect(login.status).toBe(200);
  return { token: login.body.access_token as string, refreshToken: login.body.refresh_token as string };
}

const meWithCookie = (cookie: string) =>
  fetch(`${baseUrl()}/api/auth/me`, { headers: { Cookie: cookie } }).then((response) => response.status);

describe("the person's sessions", () => {
  it("are listed with their device and last use, the caller's own first and marked", async () => {
    const person = await newUser("sessions");
    await signInAgain(person.email);
    const listed = await api("/api/account/sessions", { token: person.token });
    expect(listed.status).toBe(200);
    expect(listed.body.sessions).toHaveLength(2);
    const [mine, other] = listed.body.sessions;
    expect(mine).toMatchObject({
      id: expect.any(String),
      current: true,
      device: "Node.js",
      created_at: expect.any(String),
      last_used_at: expect.any(String),
    });
    expect(other).toMatchObject({ current: false, device: "Chrome on Linux" });
  });

  it("a revoked session's next request is signed out at once (access token and refresh token); the caller's goes on", async () => {
    const person = await newUser("sessions");
    const laptop = await signInAgain(person.email);
    const { sessions } = (await api("/api/account/sessions", { token: person.token })).body;
    const laptopSession = sessions.find((session: { current: boolean }) => !session.current);
    expect((await api("/api/auth/me", { token: laptop.token })).status).toBe(200);
    expect(
      (await api(`/api/account/sessions/${laptopSession.id}`, { method: "DELETE", token: person.token })).status,
    ).toBe(204);
    expect((await api("/api/auth/me", { token: laptop.token })).status).toBe(401);
    expect((await api("/api/auth/refresh", { json: { refresh_token: laptop.refreshToken } })).status).toBe(401);
    expect((await api("/api/auth/me", { token: person.token })).status).toBe(200);
    const after = (await api("/api/account/sessions", { token: person.token })).body.sessions;
    expect(after.map((session: { id: string }) => session.id)).not.toContain(laptopSession.id);
    // Gone: revoking it again is 404.
    expect(
      (await api(`/api/account/sessions/${laptopSession.id}`, { method: "DELETE", token: person.token })).status,
    ).toBe(404);
  });

  it("a cookie session is listed as the current one when it asks, and is signed out when revoked", async () => {
    const person = await newUser("sessions");
    const cookie = await signInWithForm(person.email);
    const fromCookie = await fetch(`${baseUrl()}/api/account/sessions`, { headers: { Cookie: cookie } }).then(
      (response) => response.json(),
    );
    const cookieSession = fromCookie.sessions.find((session: { current: boolean }) => session.current);
    expect(cookieSession).toBeDefined();
    expect(fromCookie.sessions).toHaveLength(2);
    expect(
      (await api(`/api/account/sessions/${cookieSession.id}`, { method: "DELETE", token: person.token })).status,
    ).toBe(204);
    expect(await meWithCookie(cookie)).toBe(401);
  });

  it("are scoped to their person: another person's session id is 404 and that session goes on", async () => {
    const owner = await newUser("sessions");
    const other = await newUser("sessions");
    const [ownerSession] = (await api("/api/account/sessions", { token: owner.token })).body.sessions;
    expect(
      (await api(`/api/account/sessions/${ownerSession.id}`, { method: "DELETE", token: other.token })).status,
    ).toBe(404);
    expect((await api("/api/auth/me", { token: owner.token })).status).toBe(200);
    const othersList = (await api("/api/account/sessions", { token: other.token })).body.sessions;
    expect(othersList.map((session: { id: string }) => session.id)).not.toContain(ownerSession.id);
  });

  it("log out everywhere else: every other session ends, the caller's goes on", async () => {
    const person = await newUser("sessions");
    const phone = await signInAgain(person.email);
    const cookie = await signInWithForm(person.email);
    const ended = await api("/api/account/sessions", { method: "DELETE", token: person.token });
    expect(ended.status).toBe(200);
    expect(ended.body.sessions_ended).toBe(2);
    expect((await api("/api/auth/me", { token: phone.token })).status).toBe(401);
    expect(await meWithCookie(cookie)).toBe(401);
    expect((await api("/api/auth/me", { token: person.token })).status).toBe(200);
    expect((await api("/api/account/sessions", { token: person.token })).body.sessions).toHaveLength(1);
  });

  it("need a signed-in caller", async () => {
    expect((await api("/api/account/sessions")).status).toBe(401);
    expect((await api("/api/account/sessions/some-id", { method: "DELETE" })).status).toBe(401);
  });
});
