import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { engineOf } from "../../db/portable";
import { db } from "~/lib/db/db.server";
import {
  BODY_MAX,
  contentInputSchema,
  contentUpdateSchema,
  pinSchema,
  TITLE_MAX,
} from "~/models/content/content-input.server";
import {
  createContent,
  deleteContent,
  getContent,
  listContent,
  listContentSummaries,
  setPinned,
  updateContent,
} from "~/models/content/content.server";
import { contentVersion, countContent } from "~/models/content/content-state.server";
import { newUserId } from "../support/user-rows";

let alice: string;
let bob: string;
beforeEach(async () => {
  alice = await newUserId();
  bob = await newUserId();
});

describe("content validation", () => {
  it("requires a trimmed title of at most 200 characters; the body is optional", () => {
    expect(contentInputSchema.parse({ title: "  Hello  " })).toEqual({ title: "Hello", body: undefined });
    expect(contentInputSchema.parse({ title: "Hi", body: null }).body).toBe("");
    expect(contentInputSchema.safeParse({ title: "   " }).error?.issues[0].message).toBe("Title is required");
    expect(contentInputSchema.safeParse({}).error?.issues[0].message).toBe("Title is required");
    expect(contentInputSchema.safeParse({ title: 42 }).error?.issues[0].message).toBe("Title must be text");
    expect(contentInputSchema.safeParse({ title: "x".repeat(TITLE_MAX) }).success).toBe(true);
    expect(contentInputSchema.safeParse({ title: "x".repeat(TITLE_MAX + 1) }).error?.issues[0].message).toBe(
      "Title must be at most 200 characters",
    );
  });

  it("bounds the body at 100,000 characters, counting a line break as one", () => {
    expect(contentInputSchema.safeParse({ title: "t", body: "x".repeat(BODY_MAX) }).success).toBe(true);
    expect(contentInputSchema.safeParse({ title: "t", body: "x".repeat(BODY_MAX + 1) }).error?.issues[0].message).toBe(
      "Body must be at most 100,000 characters",
    );
    expect(contentInputSchema.parse({ title: "t", body: "a\r\nb\rc" }).body).toBe("a\nb\nc");
    expect(contentInputSchema.safeParse({ title: "t", body: 5 }).error?.issues[0].message).toBe("Body must be text");
  });

  it("accepts an ISO timestamp as the version an update is based on, and a boolean pin", () => {
    expect(contentUpdateSchema.parse({ title: "t", updated_at: "2025-01-02T03:04:05Z" }).updated_at).toBe(
      "2025-01-02T03:04:05.000Z",
    );
    expect(contentUpdateSchema.safeParse({ title: "t", updated_at: "yesterday" }).success).toBe(false);
    expect(pinSchema.safeParse({ pinned: "true" }).error?.issues[0].message).toBe("pinned must be true or false");
    expect(pinSchema.safeParse({}).error?.issues[0].message).toBe("pinned is required");
  });
});

describe("content items", () => {
  it("are created with an empty body by default and read back by their owner only", async () => {
    const item = await createContent(alice, { title: "First" });
    expect(item).toEqual({
      id: expect.any(String),
      title: "First",
      body: "",
      pinned: false,
      updated_at: expect.any(String),
    });
    expect(await getContent(alice, item.id)).toEqual(item);
    expect(await getContent(bob, item.id)).toBeUndefined();
    expect(await getContent(alice, "no-such-id")).toBeUndefined();
  });

  it("list pinned first, then most recently updated first, scoped to the user, paged", async () => {
    const a = await createContent(alice, { title: "a" });
    const b = await createContent(alice, { title: "b" });
    const c = await createContent(alice, { title: "c" });
    await createContent(bob, { title: "bob's" });
    expect((await listContent(alice)).map((item) => item.title)).toEqual(["c", "b", "a"]);

    await setPinned(alice, a.id, true);
    expect((await listContent(alice)).map((item) => item.title)).toEqual(["a", "c", "b"]);

    const updated = await updateContent(alice, b.id, { title: "b2" });
    expect(updated.ok).toBe(true);
    expect((await listContent(alice)).map((item) => item.title)).toEqual(["a", "b2", "c"]);

    expect((await listContent(alice, { limit: 2 })).map((item) => item.title)).toEqual(["a", "b2"]);
    expect((await listContent(alice, { limit: 2, offset: 2 })).map((item) => item.title)).toEqual(["c"]);
    expect((await listContent(alice, { offset: 1 })).map((item) => item.title)).toEqual(["b2", "c"]);
    expect(await listContentSummaries(alice, { limit: 1 })).toEqual([
      { id: a.id, title: "a", pinned: true, updated_at: a.updated_at },
    ]);
    expect(await countContent(alice)).toBe(3);
    expect(await countContent(bob)).toBe(1);
    expect(c.updated_at > b.updated_at).toBe(true);
  });

  it("pinning keeps updated_at and is refused for another user's item", async () => {
    const item = await createContent(alice, { title: "pin me" });
    const pinned = await setPinned(alice, item.id, true);
    expect(pinned).toEqual({ ...item, pinned: true });
    expect(await setPinned(bob, item.id, false)).toBeUndefined();
    expect((await getContent(alice, item.id))?.pinned).toBe(true);
  });

  it("update changes title and body, keeps the body when none is given, and bumps updated_at", async () => {
    const item = await createContent(alice, { title: "t", body: "one" });
    const first = await updateContent(alice, item.id, { title: "t2" });
    if (!first.ok) throw new Error("update failed");
    expect(first.item).toMatchObject({ title: "t2", body: "one" });
    expect(first.item.updated_at > item.updated_at).toBe(true);
    const second = await updateContent(alice, item.id, { title: "t2", body: "" });
    if (!second.ok) throw new Error("update failed");
    expect(second.item.body).toBe("");
    // Nothing changed: same version.
    const same = await updateContent(alice, item.id, { title: "t2", body: "" });
    expect(same.ok && same.item.updated_at).toBe(second.item.updated_at);
  });

  it("an update based on an older version is refused: an old autosave never overwrites a newer save", async () => {
    const item = await createContent(alice, { title: "draft", body: "v1" });
    const manual = await updateContent(
      alice,
      item.id,
      { title: "draft", body: "v2 (saved by hand)" },
      { expectedUpdatedAt: item.updated_at },
    );
    expect(manual.ok).toBe(true);
    // The autosave that was based on the first version arrives late.
    const stale = await updateContent(
      alice,
      item.id,
      { title: "draft", body: "v1.5" },
      { expectedUpdatedAt: item.updated_at },
    );
    expect(stale).toEqual({
      ok: false,
      reason: "conflict",
      current: expect.objectContaining({ body: "v2 (saved by hand)" }),
    });
    expect((await getContent(alice, item.id))?.body).toBe("v2 (saved by hand)");
    // Based on the current version it goes through; without a version it always does.
    if (!manual.ok) throw new Error("unreachable");
    expect(
      (
        await updateContent(
          alice,
          item.id,
          { title: "draft", body: "v3" },
          { expectedUpdatedAt: manual.item.updated_at },
        )
      ).ok,
    ).toBe(true);
    expect((await updateContent(alice, item.id, { title: "draft", body: "v4" })).ok).toBe(true);
  });

  it("writes in the same millisecond still get distinct, increasing versions", async () => {
    const item = await createContent(alice, { title: "fast" });
    const versions = [item.updated_at];
    for (let i = 0; i < 5; i++) {
      const result = await updateContent(alice, item.id, { title: `fast ${i}` });
      if (!result.ok) throw new Error("update failed");
      versions.push(result.item.updated_at);
    }
    expect([...versions].sort()).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it("another user's item or an unknown id is not found for update and delete", async () => {
    const item = await createContent(alice, { title: "mine" });
    expect(await updateContent(bob, item.id, { title: "theirs" })).toEqual({ ok: false, reason: "not_found" });
    expect(await updateContent(alice, "missing", { title: "x" })).toEqual({ ok: false, reason: "not_found" });
    expect(await deleteContent(bob, item.id)).toBe(false);
    expect(await deleteContent(alice, item.id)).toBe(true);
    expect(await deleteContent(alice, item.id)).toBe(false);
    expect(await getContent(alice, item.id)).toBeUndefined();
  });

  it("the list query is served by the index alone, without a sort step", async () => {
    if (engineOf(db) === "postgres") {
      // PostgreSQL plans by table statistics (a tiny table is scanned): forbid the sequential and bitmap scans to ask
      // whether the index can serve the order, as SQLite's planner answers it.
      const plan = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
        // And the plain index scan: what is left is the index-only scan, there when the index covers the query.
        await sql`set local enable_indexscan = off`.execute(trx);
        return sql<{ "QUERY PLAN": string }>`EXPLAIN
          SELECT id, title, pinned, updated_at FROM content_items WHERE user_id = ${alice}
          ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT 100`.execute(trx);
      });
      const details = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(details).toContain("Index Only Scan Backward using content_items_user_list");
      expect(details).not.toMatch(/\bSort\b/);
      return;
    }
    const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN
      SELECT id, title, pinned, updated_at FROM content_items WHERE user_id = ${alice}
      ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT 100`.execute(db);
    const details = plan.rows.map((row) => row.detail).join("\n");
    // From the index alone (migration 0029 put the title in it): no lookup of each row in the table.
    expect(details).toContain("USING COVERING INDEX content_items_user_list");
    expect(details).not.toContain("TEMP B-TREE");
  });

  it("go away with their user", async () => {
    await createContent(bob, { title: "gone soon" });
    await db.deleteFrom("users").where("id", "=", bob).execute();
    expect(await countContent(bob)).toBe(0);
  });
});

describe("content count (kept by triggers, migration 0011)", () => {
  it("follows creates and deletes by the model and by plain SQL, only the owner's, and equals a count of the rows", async () => {
    const carol = await newUserId();
    const dave = await newUserId();
    const counted = async (userId: string) =>
      Number(
        (
          await db
            .selectFrom("content_items")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("user_id", "=", userId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await countContent(carol)).toBe(0);
    const items = [];
    for (let i = 0; i < 5; i++) items.push(await createContent(carol, { title: `Item ${i}` }));
    await createContent(dave, { title: "Dave's" });
    expect(await countContent(carol)).toBe(5);
    expect(await countContent(dave)).toBe(1);
    expect(await deleteContent(carol, items[0].id)).toBe(true);
    // Another person's delete of Carol's item changes nothing.
    expect(await deleteContent(dave, items[1].id)).toBe(false);
    expect(await countContent(carol)).toBe(4);
    // Edits and pins do not count; rows written or removed by hand do.
    await updateContent(carol, items[1].id, { title: "Renamed" });
    await setPinned(carol, items[1].id, true);
    await sql`delete from content_items where id = ${items[2].id}`.execute(db);
    await sql`update content_items set user_id = ${dave} where id = ${items[3].id}`.execute(db);
    expect(await countContent(carol)).toBe(await counted(carol));
    expect(await countContent(dave)).toBe(await counted(dave));
    expect([await countContent(carol), await countContent(dave)]).toEqual([2, 2]);
    expect(await countContent("no-such-user")).toBe(0);
  });
});

describe("content version (what a kept dashboard is keyed on)", () => {
  it("moves with every create, edit, pin and delete, by the model or by plain SQL, and only for the owner", async () => {
    const start = (await contentVersion(alice))!;
    const bobStart = (await contentVersion(bob))!;
    expect(typeof start).toBe("number");
    const seen = [start];
    const expectMoved = async () => {
      const now = (await contentVersion(alice))!;
      expect(seen).not.toContain(now);
      seen.push(now);
    };

    const item = await createContent(alice, { title: "Draft" });
    await expectMoved();
    expect((await updateContent(alice, item.id, { title: "Draft 2" })).ok).toBe(true);
    await expectMoved();
    await setPinned(alice, item.id, true);
    await expectMoved();
    // A change that bypasses the model (a restore, an operator's SQL) counts too: triggers keep it.
    await sql`update content_items set title = ${"Edited by hand"} where id = ${item.id}`.execute(db);
    await expectMoved();
    expect(await deleteContent(alice, item.id)).toBe(true);
    await expectMoved();

    expect(await contentVersion(bob)).toBe(bobStart);
    // Another person's id changes nothing of Alice's.
    await setPinned(bob, item.id, true);
    expect(await contentVersion(bob)).toBe(bobStart);
    expect(await contentVersion("no-such-user")).toBeNull();
  });
});
