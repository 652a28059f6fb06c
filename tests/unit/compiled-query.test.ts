import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  Kysely,
  NoResultError,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
} from "kysely";
import { afterAll, describe, expect, expectTypeOf, it } from "vitest";
import { compileOnce } from "~/lib/db/compiled-query.server";
import { createDialect } from "~/lib/db/db-dialect.server";
import { StripNulPlugin } from "~/lib/db/portable-sql.server";
import type { Database } from "~/lib/db/db-schema";
import { closeDatabase, db, migrateToLatest, openDatabase } from "~/lib/db/db.server";
import { newId } from "~/lib/db/ids.server";
import { listContent, listContentSummaries } from "~/models/content/content.server";
import { newUserId } from "../support/user-rows";

// Queries compiled once per database (docs/performance.md): the same rows as the query builder's own execution,
// each call's values in place of the stand-ins, constants kept, one compiled query per open database.

async function addItem(database: Kysely<Database>, userId: string, title: string, updatedAt: string, pinned = 0) {
  const id = newId();
  await database
    .insertInto("content_items")
    .values({
      id,
      user_id: userId,
      title,
      body: `body of ${title}`,
      pinned,
      created_at: updatedAt,
      updated_at: updatedAt,
    })
    .execute();
  return id;
}

const itemsOf = compileOnce((database: Kysely<Database>, p: { userId: string }) =>
  database
    .selectFrom("content_items")
    .select(["id", "title", "pinned"])
    .where("user_id", "=", p.userId)
    .orderBy("updated_at", "desc")
    .orderBy("id"),
);

/** A constant string, a constant null test and a constant limit beside the parameters. */
const newestOtherThan = compileOnce((database: Kysely<Database>, p: { userId: string; since: string }) =>
  database
    .selectFrom("content_items")
    .select("title")
    .where("user_id", "=", p.userId)
    .where("title", "!=", "skip me")
    .where("body", "is not", null)
    .where("updated_at", ">=", p.since)
    .orderBy("updated_at", "desc")
    .limit(2),
);

/** One parameter used twice. */
const byIdOrTitle = compileOnce((database: Kysely<Database>, p: { userId: string; key: string }) =>
  database
    .selectFrom("content_items")
    .select("id")
    .where("user_id", "=", p.userId)
    .where((eb) => eb.or([eb("id", "=", p.key), eb("title", "=", p.key)]))
    .orderBy("id"),
);

const renameItem = compileOnce((database: Kysely<Database>, p: { title: string; id: string }) =>
  database.updateTable("content_items").set({ title: p.title }).where("id", "=", p.id),
);

const titleOf = compileOnce((database: Kysely<Database>, p: { id: string }) =>
  database.selectFrom("content_items").select("title").where("id", "=", p.id),
);

describe("compileOnce", () => {
  it("answers the same rows as the query builder, with each call's values", async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    await addItem(db, alice, "a1", "2024-01-01T00:00:01.000Z");
    await addItem(db, alice, "a2", "2024-01-01T00:00:02.000Z", 1);
    await addItem(db, alice, "skip me", "2024-01-01T00:00:03.000Z");
    await addItem(db, bob, "b1", "2024-01-01T00:00:04.000Z");

    for (const userId of [alice, bob, "nobody"]) {
      const plain = await db
        .selectFrom("content_items")
        .select(["id", "title", "pinned"])
        .where("user_id", "=", userId)
        .orderBy("updated_at", "desc")
        .orderBy("id")
        .execute();
      const compiled = await itemsOf.all(db, { userId });
      expect(compiled).toEqual(plain);
      expectTypeOf(compiled).toEqualTypeOf<{ id: string; title: string; pinned: number }[]>();
    }
    expect((await itemsOf.all(db, { userId: alice })).map((row) => row.title)).toEqual(["skip me", "a2", "a1"]);

    // Constants stay as compiled: "skip me" is never listed, and at most 2 rows come back.
    expect(await newestOtherThan.all(db, { userId: alice, since: "2024-01-01T00:00:00.000Z" })).toEqual([
      { title: "a2" },
      { title: "a1" },
    ]);
    expect(await newestOtherThan.all(db, { userId: alice, since: "2024-01-01T00:00:02.000Z" })).toEqual([
      { title: "a2" },
    ]);
    expect(await newestOtherThan.all(db, { userId: bob, since: "2024-01-01T00:00:00.000Z" })).toEqual([
      { title: "b1" },
    ]);

    const [a1] = await db
      .selectFrom("content_items")
      .select("id")
      .where("title", "=", "a1")
      .where("user_id", "=", alice)
      .execute();
    expect(await byIdOrTitle.all(db, { userId: alice, key: "a2" })).toHaveLength(1);
    expect(await byIdOrTitle.all(db, { userId: alice, key: a1.id })).toEqual([{ id: a1.id }]);
    expect(await byIdOrTitle.all(db, { userId: bob, key: a1.id })).toEqual([]);

    const first = await titleOf.first(db, { id: a1.id });
    expectTypeOf(first).toEqualTypeOf<{ title: string } | undefined>();
    expect(first).toEqual({ title: "a1" });
    expect(await titleOf.first(db, { id: "missing" })).toBeUndefined();
    await expect(titleOf.firstOrThrow(db, { id: "missing" })).rejects.toBeInstanceOf(NoResultError);
  });

  it("writes: affected rows, inside a transaction too, and NUL handled as the query builder does", async () => {
    const userId = await newUserId();
    const id = await addItem(db, userId, "before", "2024-02-01T00:00:00.000Z");
    expect(await renameItem.affectedRows(db, { title: "after", id })).toBe(1n);
    expect(await renameItem.affectedRows(db, { title: "after", id: "missing" })).toBe(0n);
    expect(await titleOf.first(db, { id })).toEqual({ title: "after" });

    await db.transaction().execute(async (trx) => {
      expect(await renameItem.affectedRows(trx, { title: "in transaction", id })).toBe(1n);
      expect(await titleOf.first(trx, { id })).toEqual({ title: "in transaction" });
    });
    expect(await titleOf.first(db, { id })).toEqual({ title: "in transaction" });

    // What a NUL becomes (kept on SQLite, stripped by StripNulPlugin on PostgreSQL) is the same either way.
    const other = await addItem(db, userId, "other", "2024-02-01T00:00:00.000Z");
    await db.updateTable("content_items").set({ title: "nul\u0000title" }).where("id", "=", other).execute();
    await renameItem.affectedRows(db, { title: "nul\u0000title", id });
    expect(await titleOf.first(db, { id })).toEqual(await titleOf.first(db, { id: other }));
  });

  it("keeps the models' list order and paging exactly as the query builder's", async () => {
    const userId = await newUserId();
    for (let i = 0; i < 7; i++)
      await addItem(db, userId, `item ${i}`, `2024-03-01T00:00:0${i % 3}.000Z`, i % 4 === 0 ? 1 : 0);
    const plain = (limit?: number, offset?: number) => {
      let query = db
        .selectFrom("content_items")
        .select(["id", "title", "body", "pinned", "updated_at"])
        .where("user_id", "=", userId)
        .orderBy("pinned", "desc")
        .orderBy("updated_at", "desc")
        .orderBy("id", "desc");
      if (limit !== undefined) query = query.limit(limit);
      if (offset) query = (limit === undefined ? query.limit(Number.MAX_SAFE_INTEGER) : query).offset(offset);
      return query.execute();
    };
    for (const [limit, offset] of [
      [undefined, undefined],
      [3, undefined],
      [undefined, 0],
      [undefined, 2],
      [3, 2],
      [2, 6],
      [1, 0],
    ] as const) {
      const expected = (await plain(limit, offset)).map((row) => ({ ...row, pinned: Boolean(row.pinned) }));
      expect(await listContent(userId, { limit, offset })).toEqual(expected);
      expect(await listContentSummaries(userId, { limit, offset })).toEqual(
        expected.map(({ body: _body, ...summary }) => summary),
      );
    }
  });

  it("refuses a stand-in that does not become a parameter, and an undefined value", async () => {
    const inspected = compileOnce((database: Kysely<Database>, p: { id: string }) =>
      database.selectFrom("users").select("id").where("id", "=", `${p.id}`),
    );
    await expect(inspected.all(db, { id: "x" })).rejects.toThrow(/"id" did not become a parameter/);
    await expect(titleOf.all(db, { id: undefined as unknown as string })).rejects.toThrow(/"id" is undefined/);
  });
});

describe("compileOnce across databases", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-compiled-"));
  const others: Kysely<Database>[] = [];
  afterAll(async () => {
    for (const other of others) await other.destroy();
  });

  async function sqliteDatabase(name: string, plugins: KyselyPlugin[] = []) {
    const database = new Kysely<Database>({ dialect: createDialect({ sqliteFile: path.join(dir, name) }), plugins });
    others.push(database);
    await migrateToLatest(database);
    return database;
  }

  it("works after the database is closed and opened again", async () => {
    const userId = await newUserId();
    const id = await addItem(db, userId, "kept", "2024-04-01T00:00:00.000Z");
    expect(await titleOf.first(db, { id })).toEqual({ title: "kept" });
    await closeDatabase();
    await expect(titleOf.first(db, { id })).rejects.toThrow(/not open/);
    await openDatabase();
    expect(await titleOf.first(db, { id })).toEqual({ title: "kept" });
    expect(await itemsOf.all(db, { userId })).toEqual([{ id, title: "kept", pinned: 0 }]);
  });

  it("compiles once per database: the open one (whichever engine) and another SQLite beside it", async () => {
    const other = await sqliteDatabase("other.sqlite");
    const userId = await newUserId();
    await other
      .insertInto("users")
      .values({
        id: userId,
        email: `${userId}@example.com`,
        password_hash: "x",
        created_at: "2024-01-01T00:00:00.000Z",
      })
      .execute();
    await addItem(db, userId, "in the app's database", "2024-05-01T00:00:00.000Z");
    await addItem(other, userId, "in the other one", "2024-05-01T00:00:00.000Z");
    for (let i = 0; i < 2; i++) {
      expect((await itemsOf.all(db, { userId })).map((row) => row.title)).toEqual(["in the app's database"]);
      expect((await itemsOf.all(other, { userId })).map((row) => row.title)).toEqual(["in the other one"]);
    }
  });

  it("puts each value through StripNulPlugin, as the plugin itself would have", async () => {
    const stripped = await sqliteDatabase("strip.sqlite", [new StripNulPlugin()]);
    const userId = newId();
    await stripped
      .insertInto("users")
      .values({
        id: userId,
        email: `${userId}@example.com`,
        password_hash: "x",
        created_at: "2024-01-01T00:00:00.000Z",
      })
      .execute();
    const id = await addItem(stripped, userId, "title", "2024-06-01T00:00:00.000Z");
    await renameItem.affectedRows(stripped, { title: "a\u0000b\u0000c", id });
    expect(await titleOf.first(stripped, { id })).toEqual({ title: "abc" });
    // A constant in the query went through the plugin when the query was compiled.
    const constant = compileOnce((database: Kysely<Database>, p: { id: string }) =>
      database.updateTable("content_items").set({ body: "x\u0000y" }).where("id", "=", p.id),
    );
    await constant.affectedRows(stripped, { id });
    expect(await stripped.selectFrom("content_items").select("body").where("id", "=", id).executeTakeFirst()).toEqual({
      body: "xy",
    });
  });

  it("with any other plugin, builds and compiles each run with the real values (as Kysely would)", async () => {
    let transformed = 0;
    const counting: KyselyPlugin = {
      transformQuery(args: PluginTransformQueryArgs) {
        transformed++;
        return args.node;
      },
      async transformResult(args: PluginTransformResultArgs) {
        return args.result;
      },
    };
    const userId = await newUserId();
    const id = await addItem(db, userId, "plugged", "2024-07-01T00:00:00.000Z");
    const withPlugin = db.withPlugin(counting); // the same database (adapter), one more plugin
    expect(await titleOf.first(withPlugin, { id })).toEqual({ title: "plugged" });
    expect(await titleOf.first(withPlugin, { id })).toEqual({ title: "plugged" });
    expect(transformed).toBe(2);
    // The database without the plugin still runs its compiled query.
    expect(await titleOf.first(db, { id })).toEqual({ title: "plugged" });
    expect(transformed).toBe(2);
    expect(await sql<{ n: number }>`select 1 as n`.execute(withPlugin)).toMatchObject({ rows: [{ n: 1 }] });
  });
});
