import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser, signInWithForm, screenPost } from "../support/api";
import { mp3Frames, mp4Bytes } from "../support/media";

/**
 * Every screen's delete asks first (docs/screens.md#dialogs, decision 0067): a plain form without
 * `confirmed=1` is sent back to its screen's question and nothing goes; with it, the item goes. The
 * screen then shows the question with the item's name. The JSON API's DELETE calls do not ask.
 */
async function screenPage(cookie: string, path: string) {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { Cookie: cookie } });
  expect(response.status).toBe(200);
  return response.text();
}

async function upload(token: string, path: string, name: string, bytes: Buffer, type: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const answer = await api(path, { raw: form, token });
  expect(answer.status).toBe(201);
}

describe("a screen's delete asks first without JavaScript", () => {
  it("voices and the Video Hub's uploads: ?delete={name} asks, confirmed=1 deletes", async () => {
    const person = await newUser("ask-files");
    const cookie = await signInWithForm(person.email);
    await upload(person.token, "/api/voice/upload", "Narration.mp3", mp3Frames(), "audio/mpeg");
    await upload(person.token, "/api/videos/upload", "Holiday.mp4", mp4Bytes(2000), "video/mp4");
    const videoName = (await api("/api/videos", { token: person.token })).body[0].filename as string;

    for (const [path, name] of [
      ["/voices", "Narration.mp3"],
      ["/videos", videoName],
    ]) {
      const asked = await screenPost(cookie, path, { intent: "delete", name });
      expect(asked.status).toBe(302);
      expect(asked.headers.get("location")).toBe(`${path}?${new URLSearchParams({ delete: name })}`);
      const page = await screenPage(cookie, asked.headers.get("location")!);
      expect(page).toContain('role="alertdialog"');
      expect(page).toContain(`Delete “${name}”?`);
      // Nothing went yet.
      expect(await screenPage(cookie, path)).toContain(name);
      const deleted = await screenPost(cookie, path, { intent: "delete", name, confirmed: "1" });
      expect(deleted.status).toBe(302);
      expect(deleted.headers.get("location")).toBe(path);
    }
    expect(JSON.stringify((await api("/api/voice/list-files", { token: person.token })).body)).not.toContain(
      "Narration",
    );
    expect((await api("/api/videos", { token: person.token })).body).toEqual([]);
  });

  it("the account's tokens and sessions: ?revoke-token / ?revoke-session ask, confirmed=1 revokes", async () => {
    const person = await newUser("ask-account");
    const cookie = await signInWithForm(person.email);
    const token = (await api("/api/account/tokens", { json: { name: "Nightly backup" }, token: person.token })).body;
    const sessions = (await api("/api/account/sessions", { token: person.token })).body.sessions as {
      id: string;
      current: boolean;
    }[];
    // The API's session (current for its token) is another one for the screen's cookie: it can sign it out.
    const other = sessions.find((session) => session.current)!;

    const askedToken = await screenPost(cookie, "/account", { intent: "revoke-token", id: token.id });
    expect(askedToken.headers.get("location")).toBe(`/account?revoke-token=${token.id}`);
    expect(await screenPage(cookie, askedToken.headers.get("location")!)).toContain("Revoke “Nightly backup”?");
    expect((await api("/api/auth/me", { token: token.token })).status).toBe(200);
    expect(
      (await screenPost(cookie, "/account", { intent: "revoke-token", id: token.id, confirmed: "1" })).status,
    ).toBe(302);
    expect((await api("/api/auth/me", { token: token.token })).status).toBe(401);

    const askedSession = await screenPost(cookie, "/account", { intent: "revoke-session", id: other.id });
    expect(askedSession.headers.get("location")).toBe(`/account?revoke-session=${other.id}`);
    expect(await screenPage(cookie, askedSession.headers.get("location")!)).toMatch(/Sign out “[^”]+”\?/);
    expect((await api("/api/auth/me", { token: person.token })).status).toBe(200);
    await screenPost(cookie, "/account", { intent: "revoke-session", id: other.id, confirmed: "1" });
    expect((await api("/api/auth/me", { token: person.token })).status).toBe(401);
  });
});
