import { CompiledQuery } from "kysely";
import { beforeEach, expect, it } from "vitest";
import { engineOf } from "../../db/portable";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { encodeCursor } from "~/lib/http/cursor.server";
import { newId } from "~/lib/db/ids.server";
import { deleteContent, listContent } from "~/models/content/content.server";
import { contentListAnswer } from "~/models/content/content-list.server";
import {
  afterQuery,
  contentCursor,
  contentCursorKey,
  contentKeyOf,
  type ContentKey,
} from "~/models/content/content-keyset.server";
import { searchContent, searchQuery } from "~/models/content/content-search.server";
import { queryText } from "~/models/content/content-search-match.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

/**
 * Keyset paging of the content list and of its search (docs/decisions/0076, 0077), on both engines:
 * walking the cursors gives every row once in the list's order, ties and deletions included; a bad
 * cursor is a 400; and the queries start where they should (the plans).
 */
const decoder = new TextDecoder();

/** Inserts items directly, so several share one updated_at (the ties the id breaks). */
async function seed(userId: string, count: number, word = "note") {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    user_id: userId,
    title: `${word} ${i}`,
    body: i % 2 ? "odd body" : "even body",
    pinned: i % 7 === 0 ? 1 : 0,
    created_at: "2026-11-01T00:00:00.000Z",
    // Groups of 5 share a time.
    updated_at: `2026-11-01T00:00:${String(Math.floor(i / 5) % 60).padStart(2, "0")}.000Z`,
  }));
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto("content_items")
      .values(rows.slice(i, i + 100))
      .execute();
}

type Listed = { id: string; pinned: boolean; updated_at: string };

/** Every page of the API's list (or search), following each answer's cursor from the first. */
async function walk(userId: string, limit: number, q?: string, between?: (page: number) => Promise<void>) {
  const pages: Listed[][] = [];
  let after: ContentKey | undefined;
  for (;;) {
    const answer = await contentListAnswer(userId, { limit, offset: 0, q, after });
    pages.push(JSON.parse(decoder.decode(answer.json)) as Listed[]);
    if (answer.next === null) return { pages, total: answer.total };
    await between?.(pages.length);
    after = contentCursorKey(answer.next);
  }
}

describeOnEachEngine("content keyset", (engine) => {
  let alice: string;
  beforeEach(async () => {
    alice = await newUserId();
  });

  it("walks every item once, pinned first, ties in updated_at broken by id, as the whole list orders them", async () => {
    await seed(alice, 53);
    const all = (await listContent(alice)).map((item) => item.id);
    const { pages, total } = await walk(alice, 10);
    expect(pages.map((page) => page.length)).toEqual([10, 10, 10, 10, 10, 3]);
    expect(pages.flat().map((item) => item.id)).toEqual(all);
    expect(total).toBe(53);
    const pinned = pages.flat().map((item) => item.pinned);
    expect(pinned.indexOf(false)).toBe(pinned.lastIndexOf(true) + 1);
  });

  it("an exact last page names no next page", async () => {
    await seed(alice, 20);
    const { pages } = await walk(alice, 10);
    expect(pages.map((page) => page.length)).toEqual([10, 10]);
  });

  it("continues after the last row shown when rows before or after it are deleted meanwhile", async () => {
    await seed(alice, 30);
    const before = (await listContent(alice)).map((item) => item.id);
    const { pages } = await walk(alice, 10, undefined, async (page) => {
      if (page !== 1) return;
      await deleteContent(alice, before[9]!); // the last row shown: its cursor still places the next page
      await deleteContent(alice, before[2]!); // one already shown
      await deleteContent(alice, before[15]!); // one not shown yet
    });
    const seen = pages.flat().map((item) => item.id);
    expect(seen.slice(0, 10)).toEqual(before.slice(0, 10));
    expect(seen.slice(10)).toEqual(before.slice(10).filter((id) => id !== before[15]));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("walks a search's matches once each, with the same items as one search for all", async () => {
    await seed(alice, 40, "ocelot");
    await seed(alice, 40, "zebra");
    const bob = await newUserId();
    await seed(bob, 30, "ocelot");
    const found = (await searchContent(alice, "ocelot")).items;
    const all = found.map((item) => item.id);
    expect(all).toHaveLength(40);
    const { pages, total } = await walk(alice, 7, "ocelot odd");
    expect(pages.flat().map((item) => item.id)).toEqual(
      (await searchContent(alice, "ocelot odd")).items.map((item) => item.id),
    );
    // The API's search counts no total (decision 0077): the last page after a cursor cannot tell it.
    expect(total).toBe(-1);
    const whole = await contentListAnswer(alice, { limit: 50, offset: 0, q: "ocelot odd" });
    expect(whole.total).toBe(20);
    const page = await searchContent(alice, "ocelot", { limit: 15, after: contentKeyOf(found[9]!) });
    expect(page.items.map((item) => item.id)).toEqual(all.slice(10, 25));
    expect(page.total).toBe(40);
    expect(
      (await searchContent(alice, "ocelot", { limit: 15, after: contentKeyOf(found[9]!), count: false })).total,
    ).toBe(-1);
  });

  it("refuses a cursor that is not one of the list's: 400", () => {
    const bad = [
      "",
      "not base64!",
      Buffer.from("not json").toString("base64url"),
      encodeCursor("library", [1, "2026-11-01", "x"]),
      encodeCursor("content", [2, "2026-11-01", "x"]),
      encodeCursor("content", [1, "2026-11-01"]),
      encodeCursor("content", ["1", "2026-11-01", "x"]),
      "A".repeat(700),
    ];
    for (const cursor of bad) {
      let error: unknown;
      try {
        contentCursorKey(cursor);
      } catch (thrown) {
        error = thrown;
      }
      expect(error, cursor).toBeInstanceOf(DomainError);
      expect((error as DomainError).status).toBe(400);
    }
    const key = { pinned: 1, updatedAt: "2026-11-01T00:00:00.000Z", id: "abc" };
    expect(contentCursorKey(contentCursor(key))).toEqual(key);
  });

  it("reads a page after a cursor as a range of the person's list index", async () => {
    await seed(alice, 300);
    await analyze();
    const query = afterQuery(db, {
      userId: alice,
      limit: 10,
      pinned: 0,
      updatedAt: "2026-11-01T00:00:30.000Z",
      id: "m",
    })
      .select(["id"])
      .compile();
    const plan = await planOf(query);
    if (engine === "sqlite") {
      expect(plan).toMatch(
        /SEARCH content_items USING COVERING INDEX content_items_user_list \(user_id=\? AND \(pinned,updated_at,id\)<\(\?,\?,\?\)\)/,
      );
      expect(plan).not.toMatch(/TEMP B-TREE/);
    } else {
      expect(plan).toMatch(/Index (Only )?Scan( Backward)? using content_items_user_list/);
      expect(plan).toMatch(/ROW\(pinned, updated_at, id\) < ROW/);
      expect(plan).not.toMatch(/Sort/);
    }
  });

  it("starts a search from the match: a word nobody has reads nothing, for 100 items or 2,000", async () => {
    const small = alice;
    const large = await newUserId();
    await seed(small, 100);
    await seed(large, 2000);
    await analyze();
    const plans: string[] = [];
    for (const userId of [small, large]) {
      const query = searchQuery(
        db,
        { userId, query: queryText(db, ["absentword"], userId), limit: 100, offset: 0 },
        "page",
      )
        .select(["content_items.id"])
        .compile();
      plans.push((await planOf(query)).replaceAll(userId, "<user>"));
      if (engine === "postgres") {
        // Run, not only planned: no node of the plan handles a row.
        const analyzed = await db.executeQuery<{ "QUERY PLAN": unknown }>(
          CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
        );
        expect(actualRows(analyzed.rows[0]!["QUERY PLAN"])).toBe(0);
      }
    }
    expect(plans[0]).toBe(plans[1]);
    if (engine === "sqlite") {
      expect(plans[0]!.split("\n")[0]).toMatch(/^SCAN content_items_search VIRTUAL TABLE/);
      expect(plans[0]).toMatch(/SEARCH content_items USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      expect(plans[0]).not.toMatch(/content_items_user_list/);
    } else {
      expect(plans[0]).toMatch(/Bitmap Index Scan on content_items_search/);
      expect(plans[0]).not.toMatch(/content_items_user_list|Seq Scan/);
    }
  });
});

async function analyze() {
  await db.executeQuery(CompiledQuery.raw("analyze"));
}

/** The plan as text: SQLite's EXPLAIN QUERY PLAN details, or PostgreSQL's EXPLAIN lines. */
async function planOf(query: CompiledQuery): Promise<string> {
  const explain = engineOf(db) === "postgres" ? "explain" : "explain query plan";
  const result = await db.executeQuery<Record<string, string>>(
    CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]),
  );
  return result.rows.map((row) => row.detail ?? row["QUERY PLAN"]).join("\n");
}

/** The sum of "Actual Rows" over a JSON plan's nodes. */
function actualRows(plan: unknown): number {
  if (Array.isArray(plan)) return plan.reduce((sum: number, node) => sum + actualRows(node), 0);
  if (plan && typeof plan === "object") {
    const node = plan as Record<string, unknown>;
    const own = typeof node["Actual Rows"] === "number" ? node["Actual Rows"] : 0;
    return own + actualRows(node.Plan ?? []) + actualRows(node.Plans ?? []);
  }
  return 0;
}
