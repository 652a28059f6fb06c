import { beforeAll, describe, expect, it } from "vitest";
import { mp3Frames } from "../support/media";
import { api, newUser } from "../support/api";

type User = Awaited<ReturnType<typeof newUser>>;

const PROJECT_SHAPE = {
  id: expect.any(String),
  title: expect.any(String),
  description: expect.any(String),
  voice_file: null,
  music_file: null,
  video_file: null,
  image_file: null,
  updated_at: expect.any(String),
};

async function create(user: User, json: unknown) {
  const response = await api("/api/project/create", { token: user.token, json });
  expect(response.status).toBe(201);
  return response.body;
}

async function uploadVoice(user: User, filename: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(mp3Frames())]), filename);
  const response = await api("/api/voice/upload", { raw: form, token: user.token });
  expect(response.status).toBe(201);
  const list = await api("/api/voice/list-files", { token: user.token });
  expect(list.body.files).toContain(response.body.filename);
  return response.body.filename as string;
}

describe("/api/project", () => {
  let alice: User;
  let bob: User;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([newUser("alice"), newUser("bob")]);
  });

  it("401 without a token on every call", async () => {
    const calls: [string, string][] = [
      ["GET", "/api/project/"],
      ["POST", "/api/project/create"],
      ["GET", "/api/project/some-id"],
      ["PUT", "/api/project/some-id"],
      ["DELETE", "/api/project/some-id"],
    ];
    for (const [method, path] of calls) {
      const response = await api(path, {
        method,
        json: method === "POST" || method === "PUT" ? { title: "x" } : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body.detail).toEqual(expect.any(String));
    }
  });

  it("POST /create -> 201 with the project; GET / lists {projects}, most recently changed first", async () => {
    const user = await newUser("list");
    expect((await api("/api/project/", { token: user.token })).body).toEqual({ projects: [] });
    const first = await create(user, { title: "  First film  ", description: "About\r\nthings" });
    expect(first).toMatchObject({ ...PROJECT_SHAPE, title: "First film", description: "About\nthings" });
    const second = await create(user, { title: "Second" });
    expect(second.description).toBe("");

    const listed = await api("/api/project/", { token: user.token });
    expect(listed.status).toBe(200);
    expect(listed.body.projects.map((project: { title: string }) => project.title)).toEqual(["Second", "First film"]);
    expect(listed.body.projects[0]).toMatchObject(PROJECT_SHAPE);
    // Without the trailing slash too.
    expect((await api("/api/project", { token: user.token })).body.projects).toHaveLength(2);

    const one = await api(`/api/project/${first.id}`, { token: user.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: first.id, title: "First film" });
  });

  it("validates: title required and at most 200 characters, description at most 5,000 -> 422 with detail", async () => {
    const cases: [unknown, string][] = [
      [{}, "Title required"],
      [{ title: "   " }, "Title required"],
      [{ title: 42 }, "Title must be text"],
      [{ title: "x".repeat(201) }, "Title must be at most 200 characters"],
      [{ title: "x", description: "d".repeat(5001) }, "Description must be at most 5,000 characters"],
      [{ title: "x", music_file: "demo7.mp3" }, "music_file must be one of: demo1.mp3, demo2.mp3, demo3.mp3, or null"],
      [{ title: "x", voice_file: "not-a-file.mp3" }, "No such voice in your library"],
      [{ title: "x", video_file: 12 }, "video_file must be a file name, a file id or null"],
      [[1, 2], "Invalid input: expected object, received array"],
    ];
    for (const [json, detail] of cases) {
      const response = await api("/api/project/create", { token: alice.token, json });
      expect(response.status, JSON.stringify(json)).toBe(422);
      expect(response.body).toEqual({ detail });
    }
    const badJson = await api("/api/project/create", {
      token: alice.token,
      raw: "{nope",
      headers: { "Content-Type": "application/json" },
    });
    expect(badJson.status).toBe(400);
    const project = await create(alice, { title: "Valid" });
    const badPut = await api(`/api/project/${project.id}`, { method: "PUT", token: alice.token, json: { title: "" } });
    expect(badPut).toMatchObject({ status: 422, body: { detail: "Title required" } });
    expect((await api(`/api/project/${project.id}`, { token: alice.token })).body.title).toBe("Valid");
  });

  it("PUT saves title and description; left-out fields keep their value", async () => {
    const project = await create(alice, { title: "Draft", description: "Keep me", music_file: "demo1.mp3" });
    const saved = await api(`/api/project/${project.id}`, {
      method: "PUT",
      token: alice.token,
      json: { title: "Final" },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ title: "Final", description: "Keep me", music_file: "demo1.mp3" });
    const cleared = await api(`/api/project/${project.id}`, {
      method: "PUT",
      token: alice.token,
      json: { title: "Final", description: "", music_file: null },
    });
    expect(cleared.body).toMatchObject({ description: "", music_file: null });
  });

  it("media presence: a generated voice by id, an uploaded clip by name, a track; deleting the clip detaches it", async () => {
    const user = await newUser("media");
    const project = await create(user, { title: "With media", music_file: "demo2.mp3" });
    expect(project).toMatchObject({
      music_file: "demo2.mp3",
      voice_file: null,
      media: { music: { name: "Deep Abstract Ambient" } },
    });

    // The Voice generator's output, attached by the id it answers with.
    const speech = await api("/api/creative-tools/voice/generate", {
      token: user.token,
      json: { text: "Welcome to the film." },
    });
    expect(speech.status).toBe(201);
    const attached = await api(`/api/project/${project.id}`, {
      method: "PUT",
      token: user.token,
      json: { title: "With media", voice_file: speech.body.media_id },
    });
    expect(attached.status).toBe(200);
    expect(attached.body.voice_file).toBe(speech.body.filename);
    expect(attached.body.media.voice).toMatchObject({ id: speech.body.media_id, kind: "speech", url: speech.body.url });
    const audio = await api(speech.body.url, { token: user.token });
    expect(audio.status).toBe(200);

    // Another user can neither attach this user's file nor see it.
    const other = await create(bob, { title: "Bob's" });
    const stolen = await api(`/api/project/${other.id}`, {
      method: "PUT",
      token: bob.token,
      json: { title: "Bob's", voice_file: speech.body.media_id },
    });
    expect(stolen).toMatchObject({ status: 422, body: { detail: "No such voice in your library" } });

    // An uploaded clip, attached by the name the voice library lists; the answer can be written back as is.
    const clip = await uploadVoice(user, "Narration.mp3");
    const withClip = await api(`/api/project/${project.id}`, {
      method: "PUT",
      token: user.token,
      json: { title: "With media", voice_file: clip },
    });
    expect(withClip.body).toMatchObject({
      voice_file: "Narration.mp3",
      music_file: "demo2.mp3",
      video_file: null,
      image_file: null,
    });
    const roundTrip = await api(`/api/project/${project.id}`, {
      method: "PUT",
      token: user.token,
      json: withClip.body,
    });
    expect(roundTrip).toMatchObject({ status: 200, body: { voice_file: "Narration.mp3", music_file: "demo2.mp3" } });

    expect(
      (await api(`/api/voice/file/${encodeURIComponent(clip)}`, { method: "DELETE", token: user.token })).status,
    ).toBe(200);
    const after = await api(`/api/project/${project.id}`, { token: user.token });
    expect(after.body).toMatchObject({ voice_file: null, music_file: "demo2.mp3", media: { voice: null } });
  });

  it("another user's project or an unknown id -> 404 on read, update and delete, never 500", async () => {
    const project = await create(alice, { title: "Alice's own" });
    for (const id of [project.id, "unknown-id", "%00", "a".repeat(500)]) {
      const path = `/api/project/${encodeURIComponent(id)}`;
      expect((await api(path, { token: bob.token })).status, `GET ${id}`).toBe(404);
      expect(
        (await api(path, { method: "PUT", token: bob.token, json: { title: "Mine now" } })).status,
        `PUT ${id}`,
      ).toBe(404);
      expect((await api(path, { method: "DELETE", token: bob.token })).status, `DELETE ${id}`).toBe(404);
    }
    expect(
      (await api("/api/project/", { token: bob.token })).body.projects.some((p: { id: string }) => p.id === project.id),
    ).toBe(false);
    expect((await api(`/api/project/${project.id}`, { token: alice.token })).body.title).toBe("Alice's own");
  });

  it("DELETE removes the project", async () => {
    const project = await create(alice, { title: "Short-lived" });
    const deleted = await api(`/api/project/${project.id}`, { method: "DELETE", token: alice.token });
    expect(deleted).toMatchObject({ status: 200, body: { ok: true, id: project.id } });
    expect((await api(`/api/project/${project.id}`, { token: alice.token })).status).toBe(404);
    expect((await api(`/api/project/${project.id}`, { method: "DELETE", token: alice.token })).status).toBe(404);
  });

  it("wrong methods -> 405", async () => {
    expect((await api("/api/project/", { method: "POST", token: alice.token, json: { title: "x" } })).status).toBe(405);
    expect((await api("/api/project/create", { token: alice.token })).status).toBe(405);
  });
});
