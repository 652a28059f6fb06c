import { beforeAll, describe, expect, it } from "vitest";
import { mp3Frames } from "../support/media";
import { api, baseUrl, newUser } from "../support/api";

/**
 * One error, one responder: every refusal of the API is `{"detail", ...data}` with its status, a 405
 * names the allowed methods, and a 409 on save or autosave carries the stored version as `current`.
 */
type User = Awaited<ReturnType<typeof newUser>>;
const CONFLICT = "This content was changed since you loaded it; your save was refused so the newer version is kept";

describe("the API's one error responder", () => {
  let alice: User;
  beforeAll(async () => {
    alice = await newUser("errors");
  });

  it("a 409 on autosave and on PUT carries the stored item as current, shaped as GET /api/content/{id}", async () => {
    const created = await api("/api/content", { token: alice.token, json: { title: "Draft", body: "v1" } });
    const loaded = created.body;
    const saved = await api(`/api/content/${loaded.id}`, {
      method: "PUT",
      token: alice.token,
      json: { title: "Draft", body: "v2", updated_at: loaded.updated_at },
    });
    expect(saved.status).toBe(200);
    const stored = await api(`/api/content/${loaded.id}`, { token: alice.token });

    const staleAutosave = await api(`/api/content/${loaded.id}/autosave`, {
      token: alice.token,
      json: { title: "Draft", body: "v1.5", updated_at: loaded.updated_at },
    });
    expect(staleAutosave.status).toBe(409);
    expect(staleAutosave.body).toEqual({ detail: CONFLICT, current: stored.body });

    const stalePut = await api(`/api/content/${loaded.id}`, {
      method: "PUT",
      token: alice.token,
      json: { title: "Draft", body: "old tab", updated_at: loaded.updated_at },
    });
    expect(stalePut.status).toBe(409);
    expect(stalePut.body).toEqual({ detail: CONFLICT, current: stored.body });
    expect(stored.body).toMatchObject({ body: "v2" });
  });

  it("every 405 is JSON with an Allow header", async () => {
    const calls: [string, string, string][] = [
      ["PATCH", "/api/content", "GET, POST"],
      ["PATCH", "/api/content/some-id", "GET, PUT, DELETE"],
      ["GET", "/api/content/some-id/autosave", "POST"],
      ["GET", "/api/voice/upload", "POST"],
      ["POST", "/api/voice/rename", "PUT"],
      ["POST", "/api/videos/rename", "PUT"],
      ["POST", "/api/videos/some.mov", "GET, HEAD, DELETE"],
      ["POST", "/api/voice/list-files", "GET"],
      ["GET", "/api/auth/login", "POST"],
      ["PUT", "/api/auth/login", "POST"],
      ["GET", "/api/feedback", "POST"],
      ["POST", "/api/project", "GET"],
    ];
    for (const [method, path, allow] of calls) {
      const answer = await api(path, { method, token: alice.token, headers: { Origin: baseUrl() } });
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.get("allow"), `${method} ${path}`).toBe(allow);
      expect(answer.body.detail, `${method} ${path}`).toMatch(/^Method not allowed/);
    }
  });

  it("bidirectional overrides and control characters are stripped from content and project titles", async () => {
    const item = await api("/api/content", { token: alice.token, json: { title: "\u202Egnp.mp3\u0000 notes\u2066" } });
    expect(item.status).toBe(201);
    expect(item.body.title).toBe("gnp.mp3  notes");
    const project = await api("/api/project/create", {
      token: alice.token,
      json: { title: "\u200FLaunch\u202D film\u0007" },
    });
    expect(project.status).toBe(201);
    expect(project.body.title).toBe("Launch film");
    const onlyOverrides = await api("/api/content", { token: alice.token, json: { title: "\u202E\u202C" } });
    expect(onlyOverrides.status).toBe(422);
    expect(onlyOverrides.body).toEqual({ detail: "Title is required" });
  });

  it("bidirectional overrides are stripped from uploaded and renamed file names", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(mp3Frames(3))], { type: "audio/mpeg" }), "\u202Eevil\u202C take.mp3");
    const upload = await fetch(`${baseUrl()}/api/voice/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${alice.token}` },
      body: form,
    });
    expect(upload.status).toBe(201);
    expect((await upload.json()).filename).toBe("evil take.mp3");
    const renamed = await api(
      `/api/voice/rename?${new URLSearchParams({ old_name: "evil take.mp3", new_name: "\u202Egnp.mp3" })}`,
      { method: "PUT", token: alice.token },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ filename: "gnp.mp3", old_name: "evil take.mp3" });
  });
});
