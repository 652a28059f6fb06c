import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSqlite } from "~/lib/db/db-dialect.server";
import { checkText, FTS5_MAX_TOKEN_SIZE, textCheckSpec, type CheckPart } from "~/lib/search-text-check.server";

/**
 * The search's check in JavaScript (app/lib/search-text-check.server.ts) against FTS5 itself: an FTS5
 * table made as the app's (0009: unicode61, diacritics kept, title and body searched), many texts
 * and words, and for each the check must give FTS5's answer wherever it gives one, and give one for
 * every ASCII text.
 */
const sqlite = new Database(":memory:");
sqlite.exec(`create virtual table t using fts5(title, body, tokenize = 'unicode61 remove_diacritics 0');
  create virtual table t_words using fts5vocab(t, row)`);
afterAll(() => sqlite.close());

/** A small seeded random source (the same texts on every run). */
function randomSource(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STEMS = ["harbour", "Harbours", "HARB", "harbo", "ocelot", "Ocelot2", "2ocelot", "zebra", "ab", "a", "x"];
const ASCII_GLUE = [
  " ",
  "  ",
  "-",
  "_",
  ".",
  ",",
  "'",
  '"',
  "\t",
  "\n",
  "\r\n",
  "/",
  "*",
  "(",
  ")",
  ":",
  "\x7f",
  "\x01",
  "~",
];
const OTHER_GLUE = ["é", "ö", "\u00a0", "\u2014", "\u00b7", "\u212a", "İ", "😀", "\u0301", "ß"];

function text(random: () => number, ascii: boolean): string {
  const glue = ascii ? ASCII_GLUE : [...ASCII_GLUE, ...OTHER_GLUE];
  let out = "";
  const words = Math.floor(random() * 8);
  for (let i = 0; i < words; i++) {
    out += STEMS[Math.floor(random() * STEMS.length)]!;
    if (random() < 0.3) out += STEMS[Math.floor(random() * STEMS.length)]!;
    out += glue[Math.floor(random() * glue.length)]!;
  }
  return out;
}

/** The index's words starting with `prefix` (as the app looks them up), folded. */
function termsOf(prefix: string): string[] {
  const folded = prefix.toLowerCase();
  return (
    sqlite.prepare("select term from t_words where term >= ? and term <= ?").all(folded, `${folded}\u{10ffff}`) as {
      term: string;
    }[]
  ).map((row) => row.term);
}

/** FTS5's answer for row `rowid`: every part (exact words or a prefix) in title or body. */
function fts(rowid: number, parts: CheckPart[]): 0 | 1 {
  const query = parts
    .map((part) =>
      "prefix" in part ? `"${part.prefix}"*` : `(${part.terms.map((term) => `"${term}"`).join(" OR ") || '"zz"'})`,
    )
    .join(" AND ");
  // The rowid as an integer: FTS5 given a REAL rowid (a JS number) answers for other rows.
  const row = sqlite
    .prepare("select 1 from t where rowid = ? and t match ?")
    .get(BigInt(rowid), `{title body} : (${query})`);
  return row ? 1 : 0;
}

describe("the search's check in JavaScript", () => {
  const random = randomSource(36);
  const rows: { title: string; body: string }[] = [];
  for (let i = 0; i < 400; i++) rows.push({ title: text(random, i % 4 !== 0), body: text(random, i % 3 !== 0) });
  rows.push({ title: "HARBOUR", body: "" }, { title: "", body: "harbour\u00e9" }, { title: "harbour\x00", body: "" });
  const insert = sqlite.prepare("insert into t (rowid, title, body) values (?, ?, ?)");
  rows.forEach((row, i) => insert.run(i + 1, row.title, row.body));

  it("gives FTS5's answer for every ASCII text, and none for other text", () => {
    const queries: CheckPart[][] = [
      [{ terms: termsOf("harbour") }],
      [{ terms: termsOf("harb") }],
      [{ terms: termsOf("HARBO") }],
      [{ terms: termsOf("oce") }, { terms: termsOf("2") }],
      [{ prefix: "a" }],
      [{ prefix: "ocelot" }, { terms: termsOf("zebra") }],
      [{ terms: termsOf("x") }, { prefix: "harbours" }],
      [{ terms: [] }],
    ];
    let answered = 0;
    let matched = 0;
    for (const parts of queries) {
      const spec = textCheckSpec(parts);
      expect(spec).not.toBeNull();
      rows.forEach((row, i) => {
        const check = checkText(row.title, row.body, spec);
        const ascii = /^[\x01-\x7f]*$/.test(row.title + row.body);
        expect(check === null, `row ${i}: ${JSON.stringify(row)}`).toBe(!ascii);
        if (check === null) return;
        expect(check, `row ${i} ${JSON.stringify(row)} for ${JSON.stringify(parts)}`).toBe(fts(i + 1, parts));
        answered++;
        matched += check;
      });
    }
    // Both answers were given many times, so the comparison means something.
    expect(matched).toBeGreaterThan(200);
    expect(answered - matched).toBeGreaterThan(200);
  });

  it("words as long as FTS5 keeps are cut there: no check for such an index word", () => {
    const long = "h".repeat(FTS5_MAX_TOKEN_SIZE + 10);
    insert.run(10_000, `a ${long}`, "");
    const terms = termsOf("hhhh");
    expect(terms.some((term) => term.length === FTS5_MAX_TOKEN_SIZE)).toBe(true);
    expect(textCheckSpec([{ terms }])).toBeNull();
    // A prefix still answers as FTS5 does (the cut word still starts with it).
    expect(checkText(`a ${long}`, "", textCheckSpec([{ prefix: "hhhh" }]))).toBe(fts(10_000, [{ prefix: "hhhh" }]));
  });

  it("no check for a word that is not ASCII, and none without a spec", () => {
    expect(textCheckSpec([{ prefix: "café" }])).toBeNull();
    expect(textCheckSpec([{ prefix: "\u212a" }])).toBeNull();
    expect(checkText("harbour", "", null)).toBeNull();
  });

  it("is the SQL function search_text_check on the app's SQLite connections", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-text-check-"));
    const app = openSqlite(path.join(dir, "studio.sqlite"));
    try {
      const spec = textCheckSpec([{ terms: ["harbour"] }]);
      const check = app.prepare("select search_text_check(?, ?, ?) as c");
      expect(check.get("The Harbour.", "", spec)).toEqual({ c: 1 });
      expect(check.get("harbours", "", spec)).toEqual({ c: 0 });
      expect(check.get("harbour é", "", spec)).toEqual({ c: null });
    } finally {
      app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
