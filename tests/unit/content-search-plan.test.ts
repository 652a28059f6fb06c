import { beforeEach, expect, it } from "vitest";
import { engineOf } from "../../db/portable";
import { db } from "~/lib/db/db.server";
import { newId } from "~/lib/db/ids.server";
import { contentListAnswer } from "~/models/content/content-list.server";
import { contentCursorKey, contentKeyOf, type ContentKey } from "~/models/content/content-keyset.server";
import { searchContent, searchContentSummaries, searchWords } from "~/models/content/content-search.server";
import { queryText } from "~/models/content/content-search-match.server";
import { exactQueries, FEW_MATCHES, manyMatches, walkPage } from "~/models/content/content-search-plan.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

/**
 * The two ways a page of matches is read (content-search-plan.server.ts, decision 0077): walking the
 * list with the match as a check, for a word with many matches, and from the match, for a few. Both
 * must give exactly the rows and the order of one search for all, by offset and by cursor.
 */
const decoder = new TextDecoder();

async function seed(userId: string, count: number, word: string, start = 0) {
  const rows = Array.from({ length: count }, (_, n) => {
    const i = n + start;
    return {
      id: newId(),
      user_id: userId,
      title: `${word}${i % 3 === 0 ? "s" : ""} ${i}`,
      body: i % 2 ? "odd body" : "even body",
      pinned: i % 29 === 0 ? 1 : 0,
      created_at: "2026-11-01T00:00:00.000Z",
      // Groups of 4 share a time, and the words interleave in the list's order.
      updated_at: `2026-11-01T00:${String(Math.floor(i / 240) % 60).padStart(2, "0")}:${String(Math.floor(i / 4) % 60).padStart(2, "0")}.000Z`,
    };
  });
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto("content_items")
      .values(rows.slice(i, i + 100))
      .execute();
}

/** The page check's text and the person's match text, as searchPage builds them. */
async function texts(userId: string, q: string) {
  const words = searchWords(q);
  if (engineOf(db) === "postgres")
    return { person: queryText(db, words, userId), anyone: queryText(db, words, userId), textCheck: null };
  return (await exactQueries(db, words, userId))!;
}

/**
 * Texts the walk's check in JavaScript must read as the index does (search-text-check.server.ts):
 * case, punctuation and digits around the word, words only starting with it, text that is not ASCII
 * (the index's own check then), and 20 words starting with "ocel" (more than a search spells out).
 */
const VARIED = [
  "OCELOT at dawn",
  "Ocelots, ocelot-like",
  "xocelot and 2ocelot",
  "ocelot2\tnight",
  "ocelöt in the grass",
  "café ocelot",
  "naïve·ocelot",
  "ÖCELOT",
  "an Ocelot's den",
  "nothing here",
];
async function seedVaried(userId: string, count: number) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    user_id: userId,
    title: `${VARIED[i % VARIED.length]} ${i}`,
    body: `${i % 2 ? "odd" : "even"} ocel${String.fromCharCode(97 + (i % 20))}${i % 7 === 0 ? " Ocel\u00e9" : ""}`,
    pinned: i % 31 === 0 ? 1 : 0,
    created_at: "2026-11-01T00:00:00.000Z",
    updated_at: `2026-11-02T00:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(Math.floor(i / 3) % 60).padStart(2, "0")}.000Z`,
  }));
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto("content_items")
      .values(rows.slice(i, i + 100))
      .execute();
}

describeOnEachEngine("content search plan", () => {
  let alice: string;
  const many = FEW_MATCHES + 60;
  beforeEach(async () => {
    alice = await newUserId();
    await seed(alice, many, "ocelot");
    await seed(alice, many, "zebra", many);
    await seed(alice, 3, "quillwort", 2 * many);
    await seed(await newUserId(), many, "ocelot");
  });

  it("walks the list for a word with many matches, reads a rare word from the match, and both agree", async () => {
    const common = await texts(alice, "ocelot");
    expect(await manyMatches(db, alice, common.person)).toBe(true);
    const walked = await walkPage(db, alice, common.anyone, { limit: 25, offset: 50, bodies: false });
    const all = (await searchContentSummaries(alice, "ocelot")).items.map((item) => item.id);
    expect(all).toHaveLength(many);
    expect(walked!.map((row) => row.id)).toEqual(all.slice(50, 75));
    const rare = await texts(alice, "quillwort");
    expect(await manyMatches(db, alice, rare.person)).toBe(false);
    expect(await walkPage(db, alice, rare.anyone, { limit: 25, offset: 0, bodies: false })).toBeNull();
  });

  it("pages of a common word, by offset and by cursor, are the slices of one search for all", async () => {
    const all = (await searchContent(alice, "OCEL odd")).items;
    expect(all.length).toBe(many / 2);
    for (const offset of [0, 7, 101]) {
      const page = await searchContent(alice, "OCEL odd", { limit: 20, offset });
      expect(page.items).toEqual(all.slice(offset, offset + 20));
    }
    const after: ContentKey = contentKeyOf(all[33]!);
    expect((await searchContent(alice, "OCEL odd", { limit: 20, after })).items).toEqual(all.slice(34, 54));
    const seen: string[] = [];
    let cursor: ContentKey | undefined;
    for (;;) {
      const answer = await contentListAnswer(alice, { limit: 40, offset: 0, q: "ocelot", after: cursor });
      seen.push(...(JSON.parse(decoder.decode(answer.json)) as { id: string }[]).map((item) => item.id));
      if (answer.next === null) break;
      cursor = contentCursorKey(answer.next);
    }
    expect(seen).toEqual((await searchContent(alice, "ocelot")).items.map((item) => item.id));
  });

  it("a word no indexed word starts with finds nothing; the dashboard's total is still counted", async () => {
    expect(await searchContent(alice, "zyzzogeton", { limit: 20 })).toEqual({ items: [], total: 0 });
    expect(await searchContent(alice, "ocelot zyzzogeton", { limit: 20 })).toEqual({ items: [], total: 0 });
    const full = await searchContentSummaries(alice, "zebra", { limit: 21, offset: 0 });
    expect(full.items).toHaveLength(21);
    expect(full.total).toBe(many);
    const three = await searchContent(alice, "quillwort", { limit: 20 });
    expect(three.items.map((item) => item.title)).toEqual(expect.arrayContaining(["quillworts 522"]));
    expect(three.total).toBe(3);
  });

  it("the walk's check gives the match's rows for mixed case, prefixes, many index words and text not ASCII", async () => {
    const bob = await newUserId();
    await seedVaried(bob, 300);
    const expectations: [string, boolean][] = [
      ["ocel", true],
      ["OCELOT", true],
      ["ocelots", true],
      ["ocelot odd", true],
      ["o", true],
      ["ocelot café", false],
      ["ocelö", false],
    ];
    for (const [q, checkedInJs] of expectations) {
      const all = (await searchContentSummaries(bob, q)).items.map((item) => item.id);
      expect(all.length, q).toBeGreaterThan(0);
      const text = await texts(bob, q);
      if (engineOf(db) === "sqlite") expect(text.textCheck !== null, q).toBe(checkedInJs);
      const walked = await walkPage(
        db,
        bob,
        text.anyone,
        { limit: all.length, offset: 0, bodies: true },
        text.textCheck,
      );
      expect(
        walked!.map((row) => row.id),
        q,
      ).toEqual(all);
      if (engineOf(db) === "sqlite") {
        const byIndex = await walkPage(db, bob, text.anyone, { limit: all.length, offset: 0, bodies: true });
        expect(byIndex, q).toEqual(walked);
      }
    }
    // "ocel" starts more index words than a search spells out: the prefix, checked as one.
    if (engineOf(db) === "sqlite") expect((await texts(bob, "ocel")).anyone).toContain('"ocel"*');
    const many = await searchContent(bob, "Ocel");
    expect(many.items.length).toBeGreaterThanOrEqual(FEW_MATCHES);
    for (const offset of [0, 33, 250]) {
      const page = await searchContent(bob, "Ocel", { limit: 20, offset });
      expect(page.items).toEqual(many.items.slice(offset, offset + 20));
    }
    const after = contentKeyOf(many.items[120]!);
    expect((await searchContent(bob, "ocel", { limit: 20, after })).items).toEqual(many.items.slice(121, 141));
  });
});
