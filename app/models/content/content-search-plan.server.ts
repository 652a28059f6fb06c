import { sql, type Kysely } from "kysely";
import { engineOf } from "../../../db/portable";
import type { Database } from "~/lib/db/db-schema";
import { textCheckSpec, type CheckPart } from "~/lib/search-text-check.server";
import type { ContentKey } from "./content-keyset.server";

/**
 * Which way a page of matches is read (docs/decisions/0077-search-from-the-match.md, "The plan"). Both
 * ways give the same rows in the same order (the list's: pinned, updated_at, id, all descending):
 *
 * - from the match: the matches are read from the full-text index and sorted. It costs what the
 *   matches number, so it is taken when a bounded look finds fewer than FEW_MATCHES of them;
 * - by the list: the person's list index is walked in its order and each row is checked (on SQLite in
 *   JavaScript where the text allows, else against the index), until the page is full. A word in a fifth of the pieces fills a page of
 *   100 after some 500 rows, whatever the list's length. The walk stops after WALK_ROWS_PER_ROW rows
 *   per row wanted; a page it did not fill is read from the match instead (rarer words).
 *
 * On SQLite each typed word first becomes the index's own words that start with it
 * (content_items_search_instance_terms, migration 0027), at most MAX_TERMS of them: an exact word is a seek
 * in FTS5, a prefix merges every entry of every word it starts, everyone's, on each query.
 */
export const FEW_MATCHES = 200;
/** A word FTS5's unicode61 folds as ASCII's toLowerCase does. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
export const WALK_ROWS_PER_ROW = 20;
export const MAX_TERMS = 16;

/** The index's words starting with `word`: null when not looked up (not ASCII, or more than MAX_TERMS). */
export async function indexTerms(database: Kysely<Database>, word: string): Promise<string[] | null> {
  // FTS5's unicode61 folds case as ASCII's toLowerCase does for ASCII; other words keep the prefix form.
  if (!PRINTABLE_ASCII.test(word)) return null;
  const folded = word.toLowerCase();
  const last = `${folded}\u{10ffff}`;
  // One seek per word (migration 0027): the first entry at or after the previous word and a byte
  // past it (char(1) is never part of a word), until the words no longer start with `folded`.
  const rows = await sql<{ term: string }>`
    with recursive found(term, n) as (
      select (select term from content_items_search_instance_terms where term >= ${folded} and term <= ${last}), 1
      union all
      select (select term from content_items_search_instance_terms
          where term >= found.term || char(1) and term <= ${last}), found.n + 1
        from found where found.term is not null and found.n <= ${MAX_TERMS}
    ) select term from found where term is not null`.execute(database);
  const terms = rows.rows.map((row) => row.term).filter((term) => term.startsWith(folded));
  return terms.length > MAX_TERMS ? null : terms;
}

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * SQLite: the FTS5 texts for all the words, each as its exact index words (or a prefix when not looked
 * up): `person` holds the person's id (to read the match), `anyone` does not (to check a row already
 * known to be theirs); `textCheck`, the same check for search_text_check (app/lib/search-text-check.server.ts),
 * null when a word is not ASCII. null: a word no indexed word starts with, so nothing matches.
 */
export async function exactQueries(
  database: Kysely<Database>,
  words: string[],
  userId: string,
): Promise<{ person: string; anyone: string; textCheck: string | null } | null> {
  const parts: string[] = [];
  const checks: CheckPart[] = [];
  for (const word of words) {
    const terms = await indexTerms(database, word);
    if (terms === null) parts.push(`${quoted(word)}*`);
    else if (terms.length === 0) return null;
    else parts.push(`(${terms.map(quoted).join(" OR ")})`);
    // A word not ASCII stays as it is (so no check in JavaScript): its folding is FTS5's own.
    checks.push(terms !== null ? { terms } : { prefix: PRINTABLE_ASCII.test(word) ? word.toLowerCase() : word });
  }
  const words_ = `{title body} : (${parts.join(" AND ")})`;
  return { person: `user_id : ${quoted(userId)} AND ${words_}`, anyone: words_, textCheck: textCheckSpec(checks) };
}

/** Whether the person has at least FEW_MATCHES matches (a look bounded by FEW_MATCHES rows of the index). */
export async function manyMatches(database: Kysely<Database>, userId: string, query: string): Promise<boolean> {
  const look =
    engineOf(database) === "postgres"
      ? sql<{ n: number | string }>`select count(*) as n from (select 1 from content_items
          where user_id = ${userId} and content_search_document(title, body) @@ to_tsquery('simple', ${query})
          limit ${FEW_MATCHES}) as look`
      : sql<{ n: number | string }>`select count(*) as n from (select rowid from content_items_search
          where content_items_search match ${query} limit ${FEW_MATCHES}) as look`;
  const { rows } = await look.execute(database);
  return Number(rows[0]?.n ?? 0) >= FEW_MATCHES;
}

export interface WalkPage {
  limit: number;
  offset: number;
  after?: ContentKey;
  /** Also read each body (whole, as the API answers it). */
  bodies: boolean;
}

export interface WalkedRow {
  id: string;
  title: string;
  body?: string;
  pinned: number | boolean;
  updated_at: string;
}

/**
 * A page of matches by walking the person's list in its order, at most WALK_ROWS_PER_ROW rows of it
 * per row of the page; null when that did not fill the page (the caller then reads from the match).
 * `check` is the query text for a row: SQLite's `anyone` text, PostgreSQL's tsquery. On SQLite a row
 * is first checked in JavaScript (`textCheck`, see exactQueries); FTS5 is asked only where that
 * cannot tell (text not ASCII, or no textCheck).
 */
export async function walkPage(
  database: Kysely<Database>,
  userId: string,
  check: string,
  page: WalkPage,
  textCheck: string | null = null,
): Promise<WalkedRow[] | null> {
  const walk = Math.min((page.offset + page.limit) * WALK_ROWS_PER_ROW, 1_000_000);
  const after = page.after
    ? sql`and (pinned, updated_at, id) < (${page.after.pinned}, ${page.after.updatedAt}, ${page.after.id})`
    : sql``;
  const postgres = engineOf(database) === "postgres";
  const body = page.bodies ? sql`, c.body` : sql``;
  const query = postgres
    ? sql<WalkedRow>`select c.id, c.title${body}, c.pinned, c.updated_at from (
          select id, title, body, pinned, updated_at from content_items where user_id = ${userId} ${after}
          order by pinned desc, updated_at desc, id desc limit ${walk}) as c
        where content_search_document(c.title, c.body) @@ to_tsquery('simple', ${check})
        order by c.pinned desc, c.updated_at desc, c.id desc limit ${page.limit} offset ${page.offset}`
    : sql<WalkedRow>`select c.id, c.title${body}, c.pinned, c.updated_at from (
          select rowid as search_rowid, pinned, updated_at, id from content_items where user_id = ${userId} ${after}
          order by pinned desc, updated_at desc, id desc limit ${walk}) as w
        cross join content_items as c
        where c.rowid = w.search_rowid and coalesce(search_text_check(c.title, c.body, ${textCheck}),
          exists (select 1 from content_items_search
            where content_items_search.rowid = w.search_rowid and content_items_search match ${check}))
        order by w.pinned desc, w.updated_at desc, w.id desc limit ${page.limit} offset ${page.offset}`;
  const { rows } = await query.execute(database);
  return rows.length === page.limit ? rows : null;
}
