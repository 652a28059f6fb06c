import { expect, it, vi } from "vitest";
import { db } from "~/lib/db/db.server";
import {
  autosaveContent,
  createContent,
  deleteContent,
  saveContent,
  updateContent,
} from "~/models/content/content.server";
import {
  getVersion,
  listVersions,
  restoreVersion,
  versionAtEditStart,
  type VersionSummary,
} from "~/models/content/content-version.server";
import { versionCountsForExport, versionsForExportOf } from "~/models/accounts/export-reads.server";
import { deletePersonRows } from "~/models/operators/operator.server";
import { storageUse } from "~/models/media/storage-quota.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

// A small history and a 64 KiB quota, parsed with the settings (before the app's modules are imported).
vi.hoisted(() => {
  process.env.CONTENT_VERSIONS_MAX = "5";
  process.env.USER_STORAGE_QUOTA_MB = "0.0625";
});

const PAGE = { limit: 100, offset: 0 };
const bytes = (...texts: string[]) => texts.reduce((sum, text) => sum + Buffer.byteLength(text, "utf8"), 0);
const history = async (userId: string, contentId: string) => (await listVersions(userId, contentId, PAGE)).items;
const exported = async (userId: string, contentId: string) =>
  (await versionsForExportOf(userId, [contentId])).get(contentId) ?? [];
const shape = (items: VersionSummary[]) => items.map((v) => `${v.reason}:${v.title}`);
/** Moves a piece's versions back in time, as if they were kept `minutes` ago. */
async function age(contentId: string, minutes: number) {
  const rows = await db
    .selectFrom("content_versions")
    .select(["id", "created_at"])
    .where("content_id", "=", contentId)
    .execute();
  for (const row of rows)
    await db
      .updateTable("content_versions")
      .set({ created_at: new Date(Date.parse(row.created_at) - minutes * 60_000).toISOString() })
      .where("id", "=", row.id)
      .execute();
}

describeOnEachEngine("content versions", () => {
  it("a save keeps the new state, and the first write keeps the created state before it", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Draft", body: "one" });
    expect(await history(alice, item.id)).toEqual([]);
    const saved = await saveContent(alice, item.id, { title: "Draft", body: "one two" });
    const versions = await history(alice, item.id);
    expect(shape(versions)).toEqual(["save:Draft", "save:Draft"]);
    // created_at names the state: the newest is the saved one, the older the created one.
    expect(versions.map((v) => v.created_at)).toEqual([saved.updated_at, item.updated_at]);
    expect(versions[0].bytes).toBe(bytes("Draft", "one two"));
    expect(versions[0].size_change).toBe(4);
    expect(versions[1].size_change).toBeNull();
    const full = await getVersion(alice, item.id, versions[1].id);
    expect(full.body).toBe("one");

    await updateContent(alice, item.id, { title: "Draft", body: "three" });
    expect(shape(await history(alice, item.id))).toEqual(["save:Draft", "save:Draft", "save:Draft"]);
    // An unchanged save writes nothing and keeps nothing.
    await saveContent(alice, item.id, { title: "Draft", body: "three" });
    expect(await history(alice, item.id)).toHaveLength(3);
  });

  it("autosaves keep at most one version every 5 minutes per piece", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "A", body: "" });
    const first = await autosaveContent(alice, item.id, { title: "A", body: "1", updated_at: item.updated_at });
    expect(shape(await history(alice, item.id))).toEqual(["autosave:A", "save:A"]);
    const second = await autosaveContent(alice, item.id, { title: "A", body: "12", updated_at: first.updated_at });
    expect(await history(alice, item.id)).toHaveLength(2);
    // Another piece's autosave is its own.
    const other = await createContent(alice, { title: "B" });
    await autosaveContent(alice, other.id, { title: "B", body: "x" });
    expect(await history(alice, other.id)).toHaveLength(2);

    await age(item.id, 5);
    const third = await autosaveContent(alice, item.id, { title: "A", body: "123", updated_at: second.updated_at });
    const versions = await history(alice, item.id);
    expect(shape(versions)).toEqual(["autosave:A", "autosave:A", "save:A"]);
    expect(versions[0].created_at).toBe(third.updated_at);
    // A manual save is always kept, throttle or not.
    await saveContent(alice, item.id, { title: "A", body: "1234" });
    expect(shape(await history(alice, item.id))[0]).toBe("save:A");
  });

  it("keeps the state an editor began with on its first write, once", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "T", body: "start" });
    const saved = await saveContent(alice, item.id, { title: "T", body: "saved" });
    await age(item.id, 10);
    // Autosaves after the save: the first keeps its state, the next within 5 minutes do not.
    const a = await autosaveContent(alice, item.id, { title: "T", body: "a", updated_at: saved.updated_at });
    const b = await autosaveContent(alice, item.id, { title: "T", body: "ab", updated_at: a.updated_at });
    expect(await history(alice, item.id)).toHaveLength(3);
    // A new editing session from b's state, which no version holds: its first autosave keeps it first.
    const c = await autosaveContent(alice, item.id, {
      title: "T",
      body: "abc",
      updated_at: b.updated_at,
      editing_since: b.updated_at,
    });
    let versions = await history(alice, item.id);
    expect(versions.map((v) => v.created_at)).toContain(b.updated_at);
    expect(versions).toHaveLength(4);
    const start = await versionAtEditStart(alice, item.id, b.updated_at);
    expect(start).toMatchObject({ body: "ab", reason: "autosave", created_at: b.updated_at });
    // Later writes of the same session keep it no more.
    await autosaveContent(alice, item.id, {
      title: "T",
      body: "abcd",
      updated_at: c.updated_at,
      editing_since: b.updated_at,
    });
    versions = await history(alice, item.id);
    expect(versions).toHaveLength(4);
    // The version at an edit start is the newest at or before it; none before the first.
    expect((await versionAtEditStart(alice, item.id, saved.updated_at))?.body).toBe("saved");
    expect(await versionAtEditStart(alice, item.id, "2000-01-01T00:00:00.000Z")).toBeUndefined();
    expect(await versionAtEditStart(alice, item.id, "not a time")).toBeUndefined();
    expect(await versionAtEditStart(await newUserId(), item.id, b.updated_at)).toBeUndefined();
  });

  it("restore writes the version as the new state, keeps a restore version, and moves updated_at on", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Old", body: "old body" });
    const saved = await saveContent(alice, item.id, { title: "New", body: "new body" });
    const created = (await history(alice, item.id)).at(-1)!;
    const restored = await restoreVersion(alice, item.id, created.id);
    expect(restored).toMatchObject({ id: item.id, title: "Old", body: "old body" });
    expect(Date.parse(restored.updated_at)).toBeGreaterThan(Date.parse(saved.updated_at));
    const versions = await history(alice, item.id);
    expect(shape(versions)).toEqual(["restore:Old", "save:New", "save:Old"]);
    expect(versions[0].created_at).toBe(restored.updated_at);
    // The editor that still holds the saved version meets the conflict rule.
    await expect(
      autosaveContent(alice, item.id, { title: "New", body: "typing", updated_at: saved.updated_at }),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("restoring the state the piece already holds writes nothing and keeps nothing", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Same", body: "x" });
    const saved = await saveContent(alice, item.id, { title: "Same", body: "y" });
    const [newest] = await history(alice, item.id);
    expect(await restoreVersion(alice, item.id, newest.id)).toEqual(saved);
    expect(await history(alice, item.id)).toHaveLength(2);
  });

  it("a manual save with editing_since keeps the editor's start too", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "M", body: "0" });
    const a = await autosaveContent(alice, item.id, { title: "M", body: "1", updated_at: item.updated_at });
    const b = await autosaveContent(alice, item.id, { title: "M", body: "12", updated_at: a.updated_at });
    const saved = await saveContent(alice, item.id, { title: "M", body: "123" }, { editingSince: b.updated_at });
    expect((await history(alice, item.id)).map((v) => v.created_at)).toEqual([
      saved.updated_at,
      b.updated_at,
      a.updated_at,
      item.updated_at,
    ]);
  });

  it("is scoped to the owner and the piece: another person's piece or version, or another piece's, is 404", async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const item = await createContent(alice, { title: "Mine" });
    await saveContent(alice, item.id, { title: "Mine", body: "x" });
    const other = await createContent(alice, { title: "Other" });
    await saveContent(alice, other.id, { title: "Other", body: "y" });
    const [version] = await history(alice, item.id);
    await expect(listVersions(bob, item.id, PAGE)).rejects.toMatchObject({ status: 404 });
    await expect(getVersion(bob, item.id, version.id)).rejects.toMatchObject({ status: 404 });
    await expect(restoreVersion(bob, item.id, version.id)).rejects.toMatchObject({ status: 404 });
    await expect(getVersion(alice, other.id, version.id)).rejects.toMatchObject({ status: 404 });
    await expect(restoreVersion(alice, other.id, version.id)).rejects.toMatchObject({ status: 404 });
    expect((await versionCountsForExport(bob)).size).toBe(0);
    expect([...(await versionCountsForExport(alice)).keys()].sort()).toEqual([item.id, other.id].sort());
    expect((await exported(alice, item.id)).map((v) => v.body)).toEqual(["", "x"]);
    expect(await exported(bob, item.id)).toEqual([]);
  });

  it("pages newest first with the size change against the next older version across pages", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "P", body: "" });
    for (const body of ["a", "aaa", "aa"]) await saveContent(alice, item.id, { title: "P", body });
    const all = await history(alice, item.id);
    expect(all.map((v) => v.size_change)).toEqual([-1, 2, 1, null]);
    const page = await listVersions(alice, item.id, { limit: 2, offset: 1 });
    expect(page.total).toBe(4);
    expect(page.items.map((v) => v.id)).toEqual([all[1].id, all[2].id]);
    expect(page.items.map((v) => v.size_change)).toEqual([2, 1]);
  });

  it("prunes past CONTENT_VERSIONS_MAX: the oldest autosaves first, then the oldest others", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "L", body: "0" });
    let current = await saveContent(alice, item.id, { title: "L", body: "s1" });
    for (const body of ["a1", "a2"]) {
      await age(item.id, 6);
      current = await autosaveContent(alice, item.id, { title: "L", body, updated_at: current.updated_at });
    }
    // save:0, save:s1, autosave:a1, autosave:a2 — then saves past the limit of 5.
    for (const body of ["s2", "s3", "s4"]) current = await saveContent(alice, item.id, { title: "L", body });
    let bodies = (await exported(alice, item.id)).map((v) => `${v.reason}:${v.body}`);
    expect(bodies).toEqual(["save:0", "save:s1", "save:s2", "save:s3", "save:s4"]);
    await saveContent(alice, item.id, { title: "L", body: "s5" });
    bodies = (await exported(alice, item.id)).map((v) => `${v.reason}:${v.body}`);
    expect(bodies).toEqual(["save:s1", "save:s2", "save:s3", "save:s4", "save:s5"]);
  });

  it("counts versions toward the storage quota through the triggers, and leaves a version out rather than refuse a save", async () => {
    const alice = await newUserId();
    const body = "é".repeat(5000); // 10,000 bytes
    const item = await createContent(alice, { title: "Q", body });
    expect((await storageUse(alice)).textBytes).toBe(bytes("Q", body));
    await saveContent(alice, item.id, { title: "Q", body: body + "x" });
    // The piece, and the created and saved states in its history.
    expect((await storageUse(alice)).textBytes).toBe(
      bytes("Q", body + "x") + bytes("Q", body) + bytes("Q", body + "x"),
    );
    // Near the 64 KiB quota: the piece's own text still fits, its versions do not.
    const big = await createContent(alice, { title: "Big", body: "b".repeat(30_000) });
    const used = (await storageUse(alice)).textBytes;
    const saved = await saveContent(alice, big.id, { title: "Big", body: "c".repeat(30_000) });
    expect(saved.body).toBe("c".repeat(30_000));
    const kept = await history(alice, big.id);
    expect(kept).toEqual([]);
    expect((await storageUse(alice)).textBytes).toBe(used + kept.reduce((sum, v) => sum + v.bytes, 0));
    // Past the quota with the piece's own text is still 413, and nothing is kept.
    await expect(saveContent(alice, big.id, { title: "Big", body: "d".repeat(60_000) })).rejects.toMatchObject({
      status: 413,
    });
    expect(await history(alice, big.id)).toEqual(kept);
    // Deleting versions gives their bytes back.
    await db.deleteFrom("content_versions").where("content_id", "=", item.id).execute();
    expect((await storageUse(alice)).textBytes).toBe(
      bytes("Q", body + "x") + bytes("Big", "c".repeat(30_000)) + kept.reduce((sum, v) => sum + v.bytes, 0),
    );
  });

  it("goes with its piece and with its person", async () => {
    const alice = await newUserId();
    const item = await createContent(alice, { title: "Gone" });
    await saveContent(alice, item.id, { title: "Gone", body: "soon" });
    expect(await history(alice, item.id)).toHaveLength(2);
    expect(await deleteContent(alice, item.id)).toBe(true);
    const left = await db.selectFrom("content_versions").select("id").where("content_id", "=", item.id).execute();
    expect(left).toEqual([]);
    expect((await storageUse(alice)).textBytes).toBe(0);

    const kept = await createContent(alice, { title: "Kept" });
    await saveContent(alice, kept.id, { title: "Kept", body: "yes" });
    await deletePersonRows(alice);
    const rows = await db.selectFrom("content_versions").select("id").where("user_id", "=", alice).execute();
    expect(rows).toEqual([]);
  });
});
