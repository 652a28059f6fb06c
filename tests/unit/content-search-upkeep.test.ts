import { sql } from "kysely";
import { expect, it } from "vitest";
import { engineOf } from "../../db/portable";
import { db } from "~/lib/db/db.server";
import { createContent } from "~/models/content/content.server";
import { searchContent } from "~/models/content/content-search.server";
import { tidySearchIndex } from "~/models/content/content-search-upkeep.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

/**
 * The housekeeping's merge of SQLite's search index (content-search-upkeep.server.ts): pieces written
 * one transaction at a time leave FTS5 several segments; the merge leaves one, and every search
 * finds what it found before. On PostgreSQL it does nothing and the search is unchanged.
 */
const segments = async () =>
  Number(
    (await sql<{ n: number }>`select count(distinct segid) as n from content_items_search_idx`.execute(db)).rows[0].n,
  );

describeOnEachEngine("the search index's upkeep", () => {
  it("merges SQLite's index into one segment and keeps every search's answer", async () => {
    const alice = await newUserId();
    for (let i = 0; i < 40; i++)
      await createContent(alice, { title: `Upkeep ${i}`, body: i % 4 === 0 ? "a lighthouse keeper" : "plain text" });
    const before = await searchContent(alice, "lighthouse", { limit: 100, offset: 0 });
    expect(before.items).toHaveLength(10);
    const sqlite = engineOf(db) !== "postgres";
    if (sqlite) expect(await segments()).toBeGreaterThan(1);
    await tidySearchIndex();
    if (sqlite) expect(await segments()).toBe(1);
    const after = await searchContent(alice, "lighthouse", { limit: 100, offset: 0 });
    expect(after.items.map((item) => item.id)).toEqual(before.items.map((item) => item.id));
    expect((await searchContent(alice, "keep", { limit: 100, offset: 0 })).items).toHaveLength(10);
  });
});
