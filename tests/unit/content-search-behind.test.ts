import { sql } from "kysely";
import { expect, it } from "vitest";
import { db } from "~/lib/db/db.server";
import {
  autosaveContent,
  createContent,
  deleteContent,
  setPinned,
  updateContent,
} from "~/models/content/content.server";
import { catchUpAllSearchIndex, catchUpSearchIndex } from "~/models/content/content-search-behind.server";
import { contextHits, countContentMatches, searchContent } from "~/models/content/content-search.server";
import { tidySearchIndex } from "~/models/content/content-search-upkeep.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

/**
 * SQLite's search index catches up before it is read (migration 0028, docs/decisions/0080-autosave-cost-given-back.md):
 * a save of a piece's text writes nothing to FTS5, only (the first time) the text the index holds,
 * and every read of the index answers as if each save had rewritten it. PostgreSQL keeps its GIN
 * index as before; the same searches give the same answers there.
 */
const ftsWrites = async () => {
  const rows = await sql<{ n: number; pages: number }>`select count(*) as n, coalesce(sum(length(block)), 0) as pages
    from content_items_search_data`.execute(db);
  return rows.rows[0];
};
const behind = async (userId: string) =>
  Number(
    (
      await sql<{ n: number }>`select count(*) as n from content_items_search_behind where user_id = ${userId}`.execute(
        db,
      )
    ).rows[0].n,
  );
/** FTS5's own check that the index holds exactly content_items' rows (an external-content table). */
const integrityCheck = () =>
  sql`insert into content_items_search (content_items_search, rank) values ('integrity-check', 1)`.execute(db);
const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();

describeOnEachEngine("the search index catching up", (engine) => {
  it("an autosave writes nothing to SQLite's index, and the next search finds the new text and not the old", async () => {
    const ann = await newUserId();
    const piece = await createContent(ann, { title: "Harbour notes", body: "a lighthouse keeper" });
    const other = await createContent(ann, { title: "Other", body: "a lighthouse too" });
    const before = engine === "sqlite" ? await ftsWrites() : null;
    const saved = await autosaveContent(ann, piece.id, { title: "Harbour notes", body: "a windmill miller" });
    await autosaveContent(ann, piece.id, { title: "Harbour notes", body: "a windmill miller, again" });
    if (engine === "sqlite") {
      // The save's cost given back: FTS5's tables are untouched; the text the index holds is kept once.
      expect(await ftsWrites()).toEqual(before);
      expect(await behind(ann)).toBe(1);
    }
    expect(ids((await searchContent(ann, "windmill", { limit: 10 })).items)).toEqual([saved.id]);
    expect(ids((await searchContent(ann, "lighthouse", { limit: 10 })).items)).toEqual([other.id]);
    expect(await countContentMatches(ann, "again")).toBe(1);
    if (engine === "sqlite") {
      expect(await behind(ann)).toBe(0);
      await integrityCheck();
    }
  });

  it("every read of the index catches the reader's pieces up: the count and the assistant's context too", async () => {
    const bea = await newUserId();
    const piece = await createContent(bea, { title: "Plain", body: "nothing yet" });
    await updateContent(bea, piece.id, { title: "Plain", body: "a kestrel" });
    expect(await countContentMatches(bea, "kestrel")).toBe(1);
    await updateContent(bea, piece.id, { title: "Plain", body: "a falcon" });
    expect(ids(await contextHits(bea, ["falcon"], { limit: 5, bodyChars: 100 }))).toEqual([piece.id]);
    expect(await countContentMatches(bea, "kestrel")).toBe(0);
  });

  it("a delete, a pin and a change of owner after saves keep the index exact", async () => {
    const cai = await newUserId();
    const dee = await newUserId();
    const gone = await createContent(cai, { title: "To go", body: "first words" });
    const moved = await createContent(cai, { title: "To move", body: "first words" });
    const kept = await createContent(cai, { title: "To keep", body: "first words" });
    for (const item of [gone, moved, kept]) {
      await updateContent(cai, item.id, { title: item.title, body: "second words" });
      await updateContent(cai, item.id, { title: item.title, body: "third words" });
    }
    expect(await setPinned(cai, kept.id, true)).toBeTruthy();
    expect(await deleteContent(cai, gone.id)).toBe(true);
    await sql`update content_items set user_id = ${dee} where id = ${moved.id}`.execute(db);
    expect(ids((await searchContent(cai, "third", { limit: 10 })).items)).toEqual([kept.id]);
    expect(ids((await searchContent(dee, "third", { limit: 10 })).items)).toEqual([moved.id]);
    expect((await searchContent(cai, "first", { limit: 10 })).items).toEqual([]);
    expect((await searchContent(cai, "second", { limit: 10 })).items).toEqual([]);
    if (engine === "sqlite") {
      expect(await behind(cai)).toBe(0);
      expect(await behind(dee)).toBe(0);
      await integrityCheck();
    }
  });

  it("the upkeep catches everyone up, a bounded batch a transaction, and reads answer as before", async () => {
    const people = [await newUserId(), await newUserId(), await newUserId()];
    const pieces: { userId: string; id: string }[] = [];
    for (const userId of people)
      for (let i = 0; i < 3; i++) {
        const item = await createContent(userId, { title: `Piece ${i}`, body: "old text" });
        await updateContent(userId, item.id, { title: `Piece ${i}`, body: `new text ${i}` });
        pieces.push({ userId, id: item.id });
      }
    if (engine === "sqlite") {
      for (const userId of people) expect(await behind(userId)).toBe(3);
      await catchUpAllSearchIndex(2);
      for (const userId of people) expect(await behind(userId)).toBe(0);
      await integrityCheck();
    } else {
      await catchUpAllSearchIndex(2);
    }
    await tidySearchIndex();
    await catchUpSearchIndex(people[0]);
    for (const userId of people) {
      expect((await searchContent(userId, "new", { limit: 10 })).items).toHaveLength(3);
      expect((await searchContent(userId, "old", { limit: 10 })).items).toEqual([]);
    }
  });
});
