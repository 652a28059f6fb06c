import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { Kysely, sql, SqliteDialect } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cachingStatements, openSqlite } from "~/lib/db/db-dialect.server";
import { databaseEngine, db } from "~/lib/db/db.server";

// The SQLite statement cache (docs/performance.md): Kysely's SqliteDriver prepares every query it runs; the
// database it is given hands back one cached better-sqlite3 Statement per SQL text, least recently
// used first out when the cache is full.

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const database of opened.splice(0)) database.close();
  vi.restoreAllMocks();
});

function sqliteFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-statements-"));
  return path.join(dir, "test.sqlite");
}

function cached(size?: number) {
  const sqlite = openSqlite(sqliteFile());
  const database = cachingStatements(sqlite, size);
  opened.push(database);
  return database;
}

describe("cachingStatements", () => {
  it("hands back the same prepared statement for the same SQL, and prepares each text once", () => {
    const database = cached();
    const prepare = vi.spyOn(database.sqlite, "prepare");
    const first = database.prepare("select 1 as one");
    const second = database.prepare("select 1 as one");
    expect(second).toBe(first);
    expect(database.prepare("select 2 as two")).not.toBe(first);
    expect(prepare).toHaveBeenCalledTimes(2);
    expect(database.cachedStatements).toBe(2);
    expect(first.get()).toEqual({ one: 1 });
  });

  it("is bounded: the least recently used statement leaves first", () => {
    const database = cached(3);
    const a = database.prepare("select 'a'");
    const b = database.prepare("select 'b'");
    database.prepare("select 'c'");
    expect(database.prepare("select 'a'")).toBe(a); // a is now the most recently used
    database.prepare("select 'd'"); // evicts b, the least recently used
    expect(database.cachedStatements).toBe(3);
    expect(database.prepare("select 'a'")).toBe(a);
    const bAgain = database.prepare("select 'b'"); // prepared anew (and evicts c)
    expect(bAgain).not.toBe(b);
    expect(database.cachedStatements).toBe(3);
    for (let i = 0; i < 50; i++) database.prepare(`select ${i}`);
    expect(database.cachedStatements).toBe(3);
  });

  it("prepares a fresh statement while the cached one is still iterating", () => {
    const database = cached();
    const query = "select value from json_each('[1,2,3]')";
    const iterating = database.prepare(query);
    const rows = iterating.iterate();
    expect(rows.next().value).toEqual({ value: 1 });
    const other = database.prepare(query);
    expect(other).not.toBe(iterating);
    expect(other.all()).toEqual([{ value: 1 }, { value: 2 }, { value: 3 }]);
    rows.return?.();
    expect(database.prepare(query)).toBe(iterating);
  });

  it("refuses a size that is not a positive integer", () => {
    const sqlite = new Database(":memory:");
    opened.push(sqlite);
    expect(() => cachingStatements(sqlite, 0)).toThrow(RangeError);
  });

  it("serves Kysely's SqliteDriver: queries, writes, transactions, streams and destroy", async () => {
    const database = cachingStatements(openSqlite(sqliteFile()));
    const prepare = vi.spyOn(database.sqlite, "prepare");
    const close = vi.spyOn(database.sqlite, "close");
    const kysely = new Kysely<{ things: { id: number; name: string } }>({ dialect: new SqliteDialect({ database }) });
    await kysely.schema
      .createTable("things")
      .addColumn("id", "integer", (c) => c.primaryKey())
      .addColumn("name", "text")
      .execute();
    const insert = (id: number) =>
      kysely
        .insertInto("things")
        .values({ id, name: `thing ${id}` })
        .executeTakeFirst();
    expect(Number((await insert(1)).numInsertedOrUpdatedRows)).toBe(1);
    await kysely.transaction().execute(async (trx) => {
      await trx.insertInto("things").values({ id: 2, name: "thing 2" }).execute();
      await trx.insertInto("things").values({ id: 3, name: "thing 3" }).execute();
    });
    const byId = (id: number) => kysely.selectFrom("things").select("name").where("id", "=", id).executeTakeFirst();
    expect(await byId(2)).toEqual({ name: "thing 2" });
    expect(await byId(3)).toEqual({ name: "thing 3" });
    const streamed: string[] = [];
    for await (const row of kysely.selectFrom("things").select("name").orderBy("id").stream()) streamed.push(row.name);
    expect(streamed).toEqual(["thing 1", "thing 2", "thing 3"]);
    const updated = await kysely.updateTable("things").set({ name: "renamed" }).where("id", ">", 1).executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBe(2);

    const prepared = prepare.mock.calls.map(([text]) => text);
    // Each distinct text was prepared once: the inserts (the same SQL), begin/commit, the select by id.
    expect(prepared.filter((text) => text.startsWith('insert into "things"'))).toHaveLength(1);
    expect(prepared.filter((text) => text.startsWith('select "name" from "things" where "id" = ?'))).toHaveLength(1);
    expect(new Set(prepared).size).toBe(prepared.length);

    await kysely.destroy();
    expect(close).toHaveBeenCalledTimes(1);
    expect(database.cachedStatements).toBe(0);
  });
});

describe.runIf(databaseEngine() === "sqlite")("the app's database", () => {
  it("prepares a repeated query once", async () => {
    const prepare = vi.spyOn(Database.prototype, "prepare");
    const query = () => sql<{ marker: number }>`select 4711 as statement_cache_marker`.execute(db);
    for (let i = 0; i < 3; i++) await query();
    expect(prepare.mock.calls.filter(([text]) => String(text).includes("statement_cache_marker"))).toHaveLength(1);
  });
});
