import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { zipFiles } from "../support/zip";
import { api, baseUrl, newUser } from "../support/api";

/**
 * Version history of text pieces (docs/api.md#version-history, decision 0072): the three calls, what a
 * save, an autosave and a restore keep, paging, another person's ids (404), the conflict rule after a
 * restore, pruning at CONTENT_VERSIONS_MAX and the account export.
 */
type User = Awaited<ReturnType<typeof newUser>>;
interface Version {
  id: string;
  content_id: string;
  title: string;
  reason: string;
  created_at: string;
  bytes: number;
  size_change: number | null;
  body?: string;
}

let alice: User;
let bob: User;
beforeAll(async () => {
  [alice, bob] = await Promise.all([newUser("versions-a"), newUser("versions-b")]);
});

async function newPiece(user: User, title: string, body: string, server?: string) {
  const made = await api("/api/content", { token: user.token, json: { title, body }, server });
  expect(made.status).toBe(201);
  return made.body as { id: string; updated_at: string };
}
const versionsOf = async (user: User, id: string, query = "", server?: string) =>
  api<Version[]>(`/api/content/${id}/versions${query}`, { token: user.token, server });

describe("the version history API", () => {
  it("keeps the created and saved states of a PUT, lists them newest first without bodies, and reads one", async () => {
    const piece = await newPiece(alice, "Poem", "first line");
    const saved = await api(`/api/content/${piece.id}`, {
      token: alice.token,
      method: "PUT",
      json: { title: "Poem", body: "first line\nsecond line", updated_at: piece.updated_at },
    });
    expect(saved.status).toBe(200);
    const list = await versionsOf(alice, piece.id);
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total-count")).toBe("2");
    expect(list.body.map((v) => [v.reason, v.created_at])).toEqual([
      ["save", saved.body.updated_at],
      ["save", piece.updated_at],
    ]);
    expect(list.body[0]).not.toHaveProperty("body");
    expect(list.body[0]).toMatchObject({
      content_id: piece.id,
      title: "Poem",
      bytes: Buffer.byteLength("Poemfirst line\nsecond line"),
      size_change: "\nsecond line".length,
    });
    expect(list.body[1].size_change).toBeNull();

    const one = await api<Version>(`/api/content/${piece.id}/versions/${list.body[1].id}`, { token: alice.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: list.body[1].id, body: "first line", reason: "save", size_change: null });
    expect((await api(`/api/content/${piece.id}/versions/nope`, { token: alice.token })).status).toBe(404);
  });

  it("autosaves keep at most one version in 5 minutes, and the state an editor began with", async () => {
    const piece = await newPiece(alice, "Notes", "a");
    let current = piece.updated_at;
    for (const body of ["ab", "abc", "abcd"]) {
      const saved = await api(`/api/content/${piece.id}/autosave`, {
        token: alice.token,
        json: { title: "Notes", body, updated_at: current, editing_since: piece.updated_at },
      });
      expect(saved.status).toBe(200);
      current = saved.body.updated_at;
    }
    // The created state (also the editor's start) and the first autosave; the next two within 5 minutes are not kept.
    const list = await versionsOf(alice, piece.id);
    expect(list.body.map((v) => v.reason)).toEqual(["autosave", "save"]);
    expect(list.body[1].created_at).toBe(piece.updated_at);
    const bad = await api(`/api/content/${piece.id}/autosave`, {
      token: alice.token,
      json: { title: "Notes", editing_since: "yesterday" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/editing_since/);
  });

  it("pages like the content list: limit, offset, X-Total-Count and Link", async () => {
    const piece = await newPiece(alice, "Paged", "0");
    for (const body of ["1", "22", "333"])
      await api(`/api/content/${piece.id}`, { token: alice.token, method: "PUT", json: { title: "Paged", body } });
    const all = (await versionsOf(alice, piece.id)).body;
    expect(all).toHaveLength(4);
    const page = await versionsOf(alice, piece.id, "?limit=2&offset=1");
    expect(page.body.map((v) => v.id)).toEqual([all[1].id, all[2].id]);
    expect(page.headers.get("x-total-count")).toBe("4");
    expect(page.headers.get("link")).toBe(`</api/content/${piece.id}/versions?limit=2&offset=3>; rel="next"`);
    expect(page.body.map((v) => v.size_change)).toEqual([1, 0]);
    expect((await versionsOf(alice, piece.id, "?limit=2&offset=2")).headers.get("link")).toBeNull();
    expect((await versionsOf(alice, piece.id, "?limit=0")).status).toBe(400);
  });

  it("restore answers the saved item, keeps a restore version, and an editor's older autosave is then 409", async () => {
    const piece = await newPiece(alice, "Story", "the original");
    const edited = await api(`/api/content/${piece.id}/autosave`, {
      token: alice.token,
      json: { title: "Story", body: "a careless edit", updated_at: piece.updated_at },
    });
    const original = (await versionsOf(alice, piece.id)).body.at(-1)!;
    const restored = await api(`/api/content/${piece.id}/versions/${original.id}/restore`, {
      token: alice.token,
      method: "POST",
    });
    expect(restored.status).toBe(200);
    const item = await api(`/api/content/${piece.id}`, { token: alice.token });
    expect(restored.body).toEqual(item.body);
    expect(item.body).toMatchObject({ title: "Story", body: "the original" });
    expect(Date.parse(item.body.updated_at)).toBeGreaterThan(Date.parse(edited.body.updated_at));
    const list = (await versionsOf(alice, piece.id)).body;
    expect(list[0]).toMatchObject({ reason: "restore", created_at: item.body.updated_at });
    // The open editor still holds the careless edit's version: the conflict rule refuses it.
    const stale = await api(`/api/content/${piece.id}/autosave`, {
      token: alice.token,
      json: { title: "Story", body: "a careless edit, more", updated_at: edited.body.updated_at },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toMatchObject({ body: "the original", updated_at: item.body.updated_at });
  });

  it("is the owner's: another person's piece or version is 404 for every call, another piece's version too", async () => {
    const piece = await newPiece(alice, "Private", "mine");
    await api(`/api/content/${piece.id}`, { token: alice.token, method: "PUT", json: { title: "Private", body: "x" } });
    const [version] = (await versionsOf(alice, piece.id)).body;
    const other = await newPiece(alice, "Other", "y");
    for (const [user, id] of [
      [bob, piece.id],
      [alice, other.id],
    ] as const) {
      const read = await api(`/api/content/${id}/versions/${version.id}`, { token: user.token });
      expect(read.status).toBe(404);
      expect(typeof read.body.detail).toBe("string");
      const restore = await api(`/api/content/${id}/versions/${version.id}/restore`, {
        token: user.token,
        method: "POST",
      });
      expect(restore.status).toBe(404);
    }
    const list = await api(`/api/content/${piece.id}/versions`, { token: bob.token });
    expect(list.status).toBe(404);
    expect(typeof list.body.detail).toBe("string");
    expect((await api(`/api/content/${piece.id}`, { token: alice.token })).body.body).toBe("x");
    expect((await api(`/api/content/${piece.id}/versions`, {})).status).toBe(401);
  });

  it("answers 405 for other methods", async () => {
    const piece = await newPiece(alice, "Methods", "m");
    await api(`/api/content/${piece.id}`, { token: alice.token, method: "PUT", json: { title: "Methods", body: "n" } });
    const [version] = (await versionsOf(alice, piece.id)).body;
    const base = `/api/content/${piece.id}/versions`;
    expect((await api(base, { token: alice.token, method: "POST", json: {} })).status).toBe(405);
    expect((await api(`${base}/${version.id}`, { token: alice.token, method: "DELETE" })).status).toBe(405);
    expect((await api(`${base}/${version.id}/restore`, { token: alice.token })).status).toBe(405);
  });

  it("go with their piece, and are in the account export: one history file per piece, listed in the manifest", async () => {
    const carol = await newUser("versions-export");
    const piece = await newPiece(carol, "Diary / day 1", "morning");
    await api(`/api/content/${piece.id}`, {
      token: carol.token,
      method: "PUT",
      json: { title: "Diary / day 1", body: "evening" },
    });
    await newPiece(carol, "No history", "never saved");
    const response = await fetch(`${baseUrl()}/api/account/export`, {
      headers: { Authorization: `Bearer ${carol.token}` },
    });
    expect(response.status).toBe(200);
    const files = zipFiles(Buffer.from(await response.arrayBuffer()));
    const manifest = JSON.parse(files.get("manifest.json")!.data.toString("utf8"));
    expect(manifest.history).toHaveLength(1);
    const entry = manifest.history[0];
    expect(entry).toMatchObject({ content_id: piece.id, title: "Diary / day 1" });
    expect(entry.path).toMatch(/^history\/[^/]+\.json$/);
    const document = JSON.parse(files.get(entry.path)!.data.toString("utf8"));
    expect(document.versions.map((v: { body: string; reason: string }) => `${v.reason}:${v.body}`)).toEqual([
      "save:morning",
      "save:evening",
    ]);
    expect(document.versions[0]).toEqual({
      title: "Diary / day 1",
      body: "morning",
      reason: "save",
      created_at: piece.updated_at,
    });

    const usage = async () => (await api("/api/library/usage", { token: carol.token })).body.text_bytes as number;
    const before = await usage();
    expect((await api(`/api/content/${piece.id}`, { token: carol.token, method: "DELETE" })).status).toBe(200);
    expect(await usage()).toBe(
      before - 3 * Buffer.byteLength("Diary / day 1") - Buffer.byteLength("eveningmorningevening"),
    );
    const after = await fetch(`${baseUrl()}/api/account/export`, {
      headers: { Authorization: `Bearer ${carol.token}` },
    });
    const afterFiles = zipFiles(Buffer.from(await after.arrayBuffer()));
    expect([...afterFiles.keys()].some((name) => name.startsWith("history/"))).toBe(false);
  });
});

describe("pruning at CONTENT_VERSIONS_MAX", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ CONTENT_VERSIONS_MAX: "3" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("keeps at most the limit, the oldest autosaves going first", async () => {
    const dave = await newUser("versions-prune", server.url);
    const piece = await newPiece(dave, "Limited", "v0", server.url);
    // The created state and the first autosave's.
    const auto = await api(`/api/content/${piece.id}/autosave`, {
      token: dave.token,
      server: server.url,
      json: { title: "Limited", body: "auto", updated_at: piece.updated_at },
    });
    expect(auto.status).toBe(200);
    const put = (body: string) =>
      api(`/api/content/${piece.id}`, {
        token: dave.token,
        server: server.url,
        method: "PUT",
        json: { title: "Limited", body },
      });
    await put("s1");
    let list = (await versionsOf(dave, piece.id, "", server.url)).body;
    expect(list.map((v) => v.reason)).toEqual(["save", "autosave", "save"]);
    // Over the limit: the autosave goes, not the older created state.
    await put("s2");
    list = (await versionsOf(dave, piece.id, "", server.url)).body;
    expect(list.map((v) => v.reason)).toEqual(["save", "save", "save"]);
    expect(list.at(-1)!.created_at).toBe(piece.updated_at);
    // Then the oldest others.
    await put("s3");
    list = (await versionsOf(dave, piece.id, "", server.url)).body;
    expect(list).toHaveLength(3);
    const bodies = await Promise.all(
      list.map(
        async (v) =>
          (await api(`/api/content/${piece.id}/versions/${v.id}`, { token: dave.token, server: server.url })).body.body,
      ),
    );
    expect(bodies).toEqual(["s3", "s2", "s1"]);
  });
});
