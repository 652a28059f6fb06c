import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, newUser, signInWithForm } from "../support/api";
import { zipFiles } from "../support/zip";

/**
 * Speech that is not kept (docs/decisions/0042): POST /api/voice/generate with keep: false
 * answers a URL that plays for its owner for minutes, and nothing shows in the library, the voice list,
 * the usage or the export; POST keep_url ("Save to library") keeps it. Without keep (or keep: true) the
 * answer is the kept file as before. The expiry itself is tested on the model with a clock
 * (tests/unit/transient-speech.test.ts): nothing here waits 10 minutes.
 */
type User = Awaited<ReturnType<typeof newUser>>;

async function get(user: User | null, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(baseUrl() + url, {
    headers: { ...(user ? { Authorization: `Bearer ${user.token}` } : {}), ...headers },
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** What a person has, as every list and counter shows it. */
async function holdings(user: User) {
  const [library, voices, usage] = await Promise.all([
    api("/api/library", { token: user.token }),
    api("/api/voice/list-files", { token: user.token }),
    api("/api/library/usage", { token: user.token }),
  ]);
  const exported = await fetch(`${baseUrl()}/api/account/export`, {
    headers: { Authorization: `Bearer ${user.token}` },
  });
  const manifest = JSON.parse(
    zipFiles(Buffer.from(await exported.arrayBuffer()))
      .get("manifest.json")!
      .data.toString("utf8"),
  );
  return {
    library: library.body.total as number,
    files: library.body.files.map((file: { id: string }) => file.id),
    voices: voices.body.files,
    usage: usage.body,
    exported: manifest.library.length as number,
  };
}

const unkept = (user: User, text: string, extra: Record<string, unknown> = {}) =>
  api("/api/voice/generate", { token: user.token, json: { text, voice_id: "gmw/en-GB-x-rp", keep: false, ...extra } });

let alice: User;
let bob: User;
beforeAll(async () => {
  [alice, bob] = await Promise.all([newUser("unkept-alice"), newUser("unkept-bob")]);
});

describe("POST /api/voice/generate with keep: false", () => {
  it("answers a URL that plays for its owner only, and files nothing: library, voice list, usage and export unchanged", async () => {
    const before = await holdings(alice);
    expect(before).toMatchObject({ library: 0, voices: [], exported: 0 });

    const response = await unkept(alice, "This reply is only heard.");
    expect(response.status).toBe(201);
    const id = response.body.speech_id;
    expect(response.body).toEqual({
      url: `/media/spoken/${id}`,
      audio_url: `/media/spoken/${id}`,
      voice_id: "gmw/en-GB-x-rp",
      media_id: null,
      filename: null,
      speech_id: expect.stringMatching(/^[\w-]+$/),
      expires_at: expect.any(String),
      keep_url: `/api/voice/spoken/${id}/keep`,
    });
    // About ten minutes from now.
    const lifetime = Date.parse(response.body.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000);

    const file = await get(alice, response.body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("audio/wav");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.bytes.toString("ascii", 0, 4)).toBe("RIFF");
    expect(file.bytes.length).toBeGreaterThan(20_000);
    const part = await get(alice, response.body.url, { Range: "bytes=0-43" });
    expect(part.status).toBe(206);
    expect(part.bytes.equals(file.bytes.subarray(0, 44))).toBe(true);

    // Nobody else, and nobody signed out; nor is it a library file at /media/{id}.
    expect((await get(bob, response.body.url)).status).toBe(404);
    expect((await get(null, response.body.url)).status).toBe(401);
    expect((await get(alice, `/media/${id}`)).status).toBe(404);
    expect((await api(`/api/library/${id}`, { token: alice.token })).status).toBe(404);

    expect(await holdings(alice)).toEqual(before);
  });

  it("plays for a browser's session cookie too (the assistant's player)", async () => {
    const cookie = await signInWithForm(alice.email);
    const response = await unkept(alice, "Cookie or token, the same.");
    const played = await fetch(baseUrl() + response.body.url, { headers: { Cookie: cookie } });
    expect(played.status).toBe(200);
    expect(played.headers.get("content-type")).toBe("audio/wav");
  });

  it("without keep, or with keep: true, the speech is kept in the library as before", async () => {
    const user = await newUser("unkept-default");
    for (const json of [{ text: "Kept by default." }, { text: "Kept on purpose.", keep: true }]) {
      const response = await api("/api/voice/generate", { token: user.token, json });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        url: `/media/${response.body.media_id}`,
        audio_url: response.body.url,
        media_id: expect.stringMatching(/^[\w-]+$/),
        filename: expect.stringMatching(/^speech-kept-.*\.wav$/),
        voice_id: "gmw/en-US",
      });
      expect((await get(user, response.body.url)).status).toBe(200);
    }
    const after = await holdings(user);
    expect(after).toMatchObject({ library: 2, exported: 2 });
    expect(after.usage.by_kind.speech).toBeGreaterThan(40_000);
  });

  it("keep that is not a boolean is 400 {detail}, and nothing is spoken", async () => {
    for (const keep of ["false", 0, 1, null, "no", {}]) {
      const response = await api("/api/voice/generate", { token: alice.token, json: { text: "Hello", keep } });
      expect(response.status, JSON.stringify(keep)).toBe(400);
      expect(response.body.detail).toMatch(/keep/);
    }
    // The text's own refusals stay 422.
    expect((await unkept(alice, "")).status).toBe(422);
    expect((await unkept(alice, "hello", { voice_id: "no-such-voice" })).status).toBe(422);
  });

  it("counts against the person's AI limits like any speech (the 21st AI request in a minute is 429)", async () => {
    const user = await newUser("unkept-limits");
    for (let i = 0; i < 20; i++)
      expect((await api("/api/assistant/message", { token: user.token, json: { message: `hello ${i}` } })).status).toBe(
        200,
      );
    const refused = await unkept(user, "One too many.");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.body.detail).toMatch(/Too many AI requests/);
  });
});

describe("POST /api/voice/spoken/{id}/keep (Save to library)", () => {
  it("keeps that very speech: one library file, the same bytes, and again answers the same file", async () => {
    const user = await newUser("unkept-keep");
    const spoken = await unkept(user, "Keep this one, please.");
    const heard = await get(user, spoken.body.url);
    const id = spoken.body.speech_id;

    // Not another person's to keep; GET is not the way.
    expect((await api(spoken.body.keep_url, { token: bob.token, method: "POST" })).status).toBe(404);
    expect((await api(spoken.body.keep_url, { token: user.token })).status).toBe(405);

    const kept = await api(spoken.body.keep_url, { token: user.token, method: "POST" });
    expect(kept.status).toBe(201);
    expect(kept.body).toEqual({
      url: `/media/${id}`,
      audio_url: `/media/${id}`,
      media_id: id,
      filename: expect.stringMatching(/^speech-keep-this-one-please-.*\.wav$/),
      voice_id: "gmw/en-GB-x-rp",
    });
    const after = await holdings(user);
    expect(after).toMatchObject({ library: 1, files: [id], exported: 1 });
    expect(after.usage.by_kind.speech).toBe(heard.bytes.length);
    const item = await api(`/api/library/${id}`, { token: user.token });
    expect(item.body).toMatchObject({
      kind: "speech",
      provenance: {
        prompt: "Keep this one, please.",
        voice: expect.stringContaining("gmw/en-GB-x-rp"),
        provider: "espeak-ng",
      },
    });

    // The library file is the speech that was heard; the player's URL keeps playing it.
    expect((await get(user, kept.body.url)).bytes.equals(heard.bytes)).toBe(true);
    expect((await get(user, spoken.body.url)).bytes.equals(heard.bytes)).toBe(true);
    expect((await get(bob, spoken.body.url)).status).toBe(404);

    // A second save (a double click, another tab) keeps nothing more.
    const again = await api(spoken.body.keep_url, { token: user.token, method: "POST" });
    expect(again.status).toBe(200);
    expect(again.body.media_id).toBe(id);
    expect((await holdings(user)).library).toBe(1);
  });

  it("is no AI request: a person over the AI limits can still save what they heard", async () => {
    const user = await newUser("unkept-keep-limits");
    const spoken = await unkept(user, "Heard before the limit.");
    for (let i = 0; i < 19; i++)
      await api("/api/assistant/message", { token: user.token, json: { message: `hello ${i}` } });
    expect((await unkept(user, "Over the limit.")).status).toBe(429);
    expect((await api(spoken.body.keep_url, { token: user.token, method: "POST" })).status).toBe(201);
  });

  it("an unknown id is 404 {detail}", async () => {
    const response = await api("/api/voice/spoken/not-a-real-clip-id/keep", { token: alice.token, method: "POST" });
    expect(response.status).toBe(404);
    expect(response.body.detail).toMatch(/expired/);
    expect((await get(alice, "/media/spoken/not-a-real-clip-id")).status).toBe(404);
  });
});
