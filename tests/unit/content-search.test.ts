import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kysely, Migrator, sql, type Migration } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { createDialect } from "~/lib/db/db-dialect.server";
import { engineOf } from "../../db/portable";
import { db } from "~/lib/db/db.server";
import { createContent, deleteContent, setPinned, updateContent } from "~/models/content/content.server";
import {
  countContentMatches,
  searchContent,
  searchContentSummaries,
  searchWords,
} from "~/models/content/content-search.server";
import { ftsQuery, tsQuery } from "~/models/content/content-search-match.server";
import { newUserId } from "../support/user-rows";

/**
 * The search model on the engine the run opened (SQLite under `npm test`; PostgreSQL under
 * `npm run test:pg`, which lists this file): the same words find the same items on both.
 */
let alice: string;
let bob: string;
beforeEach(async () => {
  alice = await newUserId();
  bob = await newUserId();
});

const titles = (items: { title: string }[]) => items.map((item) => item.title);
/** The matches only (searchContent answers { items, total }). */
const find = async (userId: string, q: string, options?: { limit?: number; offset?: number }) =>
  (await searchContent(userId, q, options)).items;

describe("search words", () => {
  it("are runs of letters, digits and marks, each once, never search syntax", () => {
    expect(searchWords("  Robo dance ")).toEqual(["Robo", "dance"]);
    expect(searchWords('"robots" OR NEAR(x) -y title:z ^a *')).toEqual([
      "robots",
      "OR",
      "NEAR",
      "x",
      "y",
      "title",
      "z",
      "a",
    ]);
    expect(searchWords("me@x.com e-mail l’amour don't")).toEqual(["me", "x", "com", "e", "mail", "l", "amour", "don"]); // the first 8
    expect(searchWords("हिन्दी café 日本語")).toEqual(["हिन्दी", "café", "日本語"]);
    expect(searchWords("cafe\u0301")).toEqual(["café"]);
    expect(searchWords("!!! ''' \"\" ... \u0301 😀")).toEqual([]);
    expect(searchWords("a a a b")).toEqual(["a", "b"]);
    expect(searchWords(Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "))).toEqual([
      "w0",
      "w1",
      "w2",
      "w3",
      "w4",
      "w5",
      "w6",
      "w7",
    ]);
    expect(ftsQuery(["robo", "dance"], "u-1")).toBe('user_id : "u-1" AND {title body} : ("robo"* "dance"*)');
    expect(tsQuery(["robo", "dance"])).toBe("'robo':* & 'dance':*");
  });
});

describe(`content search (${process.env.DATABASE_URL ? "postgres" : "sqlite"})`, () => {
  it("matches title and body, every word, each also as a prefix", async () => {
    await createContent(alice, { title: "Robots at dawn", body: "A story about machines." });
    await createContent(alice, { title: "Garden notes", body: "The robotic mower hums; tomatoes ripen." });
    await createContent(alice, { title: "Shopping", body: "milk, eggs" });

    expect(titles(await find(alice, "robots"))).toEqual(["Robots at dawn"]);
    expect(titles(await find(alice, "robo"))).toEqual(["Garden notes", "Robots at dawn"]);
    expect(titles(await find(alice, "ROBO MOW"))).toEqual(["Garden notes"]);
    expect(titles(await find(alice, "machines"))).toEqual(["Robots at dawn"]);
    expect(titles(await find(alice, "eggs, milk!"))).toEqual(["Shopping"]);
    expect(titles(await find(alice, "robo eggs"))).toEqual([]);
    // Not inside words: "bots" is no word's start.
    expect(titles(await find(alice, "bots"))).toEqual([]);
    expect(await countContentMatches(alice, "robo")).toBe(2);
    // Full items, as the API answers them.
    const [item] = await find(alice, "dawn");
    expect(item).toEqual({
      id: expect.any(String),
      title: "Robots at dawn",
      body: "A story about machines.",
      pinned: false,
      updated_at: expect.any(String),
    });
  });

  it("finds words however they are punctuated, and words of other scripts", async () => {
    await createContent(alice, {
      title: "Contacts",
      body: "Write to me@example.com or call “Robin” — (555) 0100; e-mail works too. l’amour, naïve, 日本語 テキスト, हिन्दी",
    });
    for (const q of [
      "example",
      "me@example.com",
      "robin",
      "555",
      "email",
      "e-mail",
      "amour",
      "naïve",
      "日本語",
      "テキスト",
      "हिन्दी",
    ]) {
      const expected = q === "email" ? [] : ["Contacts"];
      expect(titles(await find(alice, q)), q).toEqual(expected);
    }
    // Accents are kept on both engines (no unaccent): "naive" is not "naïve".
    expect(titles(await find(alice, "naive"))).toEqual([]);
  });

  it("answers in the list's order: pinned first, then most recently updated; limit and offset page through", async () => {
    const first = await createContent(alice, { title: "note one" });
    const second = await createContent(alice, { title: "note two" });
    const third = await createContent(alice, { title: "note three" });
    await setPinned(alice, first.id, true);
    expect(titles(await find(alice, "note"))).toEqual(["note one", "note three", "note two"]);
    expect(titles(await find(alice, "note", { limit: 2 }))).toEqual(["note one", "note three"]);
    expect(titles(await find(alice, "note", { limit: 2, offset: 2 }))).toEqual(["note two"]);
    expect(titles(await find(alice, "note", { offset: 1 }))).toEqual(["note three", "note two"]);
    expect(await searchContentSummaries(alice, "note three")).toEqual({
      items: [{ id: third.id, title: "note three", pinned: false, updated_at: third.updated_at }],
      total: 1,
    });
    // The total: from the page itself when it is not full, counted when it is or when the page is past the end.
    expect((await searchContent(alice, "note", { limit: 2 })).total).toBe(3);
    expect((await searchContent(alice, "note", { limit: 2, offset: 2 })).total).toBe(3);
    expect((await searchContent(alice, "note", { limit: 5 })).total).toBe(3);
    expect(await searchContent(alice, "note", { limit: 2, offset: 10 })).toEqual({ items: [], total: 3 });
    expect(await searchContent(alice, "zebra", { limit: 2 })).toEqual({ items: [], total: 0 });
    expect(second.id).toBeTruthy();
  });

  it("follows edits and deletes (the index is kept in step)", async () => {
    const item = await createContent(alice, { title: "Draft", body: "penguins" });
    expect(titles(await find(alice, "penguin"))).toEqual(["Draft"]);
    await updateContent(alice, item.id, { title: "Final", body: "albatross" });
    expect(titles(await find(alice, "penguin"))).toEqual([]);
    expect(titles(await find(alice, "albatross"))).toEqual(["Final"]);
    expect(titles(await find(alice, "draft"))).toEqual([]);
    await setPinned(alice, item.id, true);
    expect(titles(await find(alice, "final albatross"))).toEqual(["Final"]);
    await deleteContent(alice, item.id);
    expect(titles(await find(alice, "albatross"))).toEqual([]);
  });

  it("never finds another person's items", async () => {
    await createContent(bob, { title: "Secret recipe", body: "saffron" });
    await createContent(alice, { title: "My recipe", body: "salt" });
    expect(titles(await find(alice, "recipe"))).toEqual(["My recipe"]);
    expect(titles(await find(alice, "saffron"))).toEqual([]);
    expect(await countContentMatches(alice, "secret")).toBe(0);
    expect(titles(await find(bob, "recipe"))).toEqual(["Secret recipe"]);
  });

  it("takes any input without an error: syntax, quotes, punctuation only, long words", async () => {
    await createContent(alice, {
      title: "Quotes",
      body: `He said "hi" and 'bye' (NEAR AND OR NOT) col:umn ^start * \\ back`,
    });
    const odd = [
      '"',
      "'",
      '"unbalanced',
      "it's",
      "a'b\"c",
      "NEAR(a b)",
      "AND",
      "OR OR",
      "NOT",
      "title:x",
      "^start",
      "*",
      "-x",
      "a*b",
      "\\",
      "\\'",
      "!!!",
      "()",
      ":*",
      "&|!",
      "<->",
      "\u0000",
      "x".repeat(500),
      "ß".repeat(250),
      "😀".repeat(100),
      "\u0301",
    ];
    for (const q of odd) {
      const { items, total } = await searchContent(alice, q);
      expect(Array.isArray(items), JSON.stringify(q)).toBe(true);
      expect(total, JSON.stringify(q)).toBe(items.length);
      expect(await countContentMatches(alice, q)).toBe(items.length);
    }
    expect(titles(await find(alice, "it's"))).toEqual([]);
    expect(titles(await find(alice, "\"hi\" 'bye'"))).toEqual(["Quotes"]);
    expect(titles(await find(alice, "NEAR AND OR NOT"))).toEqual(["Quotes"]);
    expect(titles(await find(alice, "col:umn"))).toEqual(["Quotes"]);
    expect(await find(alice, "!!!")).toEqual([]);
  });

  it("rows written by any path are found (triggers on SQLite, the expression index on PostgreSQL)", async () => {
    await db
      .insertInto("content_items")
      .values({
        id: "direct-row-1",
        user_id: alice,
        title: "Imported",
        body: "walrus",
        pinned: 0,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
      })
      .execute();
    expect(titles(await find(alice, "walrus"))).toEqual(["Imported"]);
    if (engineOf(db) === "sqlite") {
      // FTS5 compares its index with content_items: an error here means the two drifted apart.
      await sql`insert into content_items_search (content_items_search, rank) values ('integrity-check', 1)`.execute(
        db,
      );
    } else {
      // The search uses the GIN index (sequential scans off: the table is too small for the planner to bother).
      const plan = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return sql<{
          "QUERY PLAN": string;
        }>`explain select id from content_items where content_search_document(content_items.title, content_items.body) @@ to_tsquery('simple', 'walrus:*')`.execute(
          trx,
        );
      });
      expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(/content_items_search/);
    }
  });

  it("a deleted person's items leave the index with them", async () => {
    await createContent(bob, { title: "Gone", body: "ocelot" });
    await db.deleteFrom("users").where("id", "=", bob).execute();
    expect(await countContentMatches(bob, "ocelot")).toBe(0);
    if (engineOf(db) === "sqlite") {
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from content_items_search where content_items_search match 'ocelot'`.execute(db);
      expect(rows[0].n).toBe(0);
    }
  });
});

describe("migration 0009 on SQLite", () => {
  it("indexes the content that was there before it (backfill), and its down leaves no trace", async () => {
    const migrationModules = import.meta.glob<Migration>("../../db/migrations/*.ts", { eager: true });
    const migrations = Object.fromEntries(
      Object.entries(migrationModules).map(([file, module]) => [path.basename(file, ".ts"), module]),
    );
    const names = Object.keys(migrations).sort();
    const before = names[names.indexOf("0009_content_search") - 1];
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "studio-search-migration-"));
    const old = new Kysely<any>({ dialect: createDialect({ sqliteFile: path.join(folder, "studio.sqlite") }) });
    const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } });
    try {
      expect((await migrator.migrateTo(before)).error).toBeUndefined();
      const now = "2026-01-01T00:00:00.000Z";
      await old
        .insertInto("users")
        .values({ id: "u1", email: "u1@example.com", password_hash: "x", created_at: now })
        .execute();
      await old
        .insertInto("content_items")
        .values({
          id: "c1",
          user_id: "u1",
          title: "Old note",
          body: "written before search existed",
          pinned: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();

      expect((await migrator.migrateTo("0009_content_search")).error).toBeUndefined();
      const found = await sql<{
        id: string;
      }>`select c.id from content_items c where c.rowid in (select rowid from content_items_search where content_items_search match ${ftsQuery(["existed"], "u1")})`.execute(
        old,
      );
      expect(found.rows).toEqual([{ id: "c1" }]);

      expect((await migrator.migrateTo(before)).error).toBeUndefined();
      const left = await sql<{
        name: string;
      }>`select name from sqlite_master where name like 'content_items_search%'`.execute(old);
      expect(left.rows).toEqual([]);
    } finally {
      await old.destroy();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
