import { sql, type Kysely } from "kysely";
import { z } from "zod";
import { compileOnce } from "~/lib/db/compiled-query.server";
import type { Database } from "~/lib/db/db-schema";
import { db } from "~/lib/db/db.server";
import type { ContentItem, ContentSummary } from "./content.server";
import type { ContentKey } from "./content-keyset.server";
import { matchingRows, queryText } from "./content-search-match.server";
import { exactQueries, manyMatches, walkPage, type WalkedRow } from "./content-search-plan.server";
import { engineOf } from "../../../db/portable";
import { catchUpSearchIndex } from "./content-search-behind.server";

/**
 * Content search (decision 0019): the person's items whose title or body has every word of a query, each
 * word also matching as the start of a longer one ("robo" finds "robots"), in the list's own order
 * (pinned first, then most recently updated). Every query is scoped by the user's id.
 *
 * The index is the engine's own (db/migrations/0009_content_search.ts, docs/decisions/0019): SQLite's
 * FTS5 table content_items_search, PostgreSQL's GIN index on content_search_document(title, body).
 * The query is built here from the words of what the person typed, never passed through as search
 * syntax: words are runs of letters, digits and combining marks, each is quoted, so no input can be
 * a syntax error (FTS5 `user_id : "<id>" AND {title body} : ("word"* "next"*)`, PostgreSQL
 * `'word':* & 'next':*`). On SQLite the user's id is part of the match too, so FTS5 reads only the
 * person's entries; PostgreSQL combines the GIN index with the user_id index (a bitmap AND).
 */
export const SEARCH_QUERY_MAX = 500;
/**
 * More words only narrow the result further, and each costs a pass over the index (a prefix on
 * SQLite reads the word's entries among everyone's content): a query of 20 words is a paste, not a search.
 */
export const SEARCH_WORDS_MAX = 8;

/** `q`: optional; blank is no search (the plain list). At most 500 characters, so no word outgrows either index's limits. */
export const searchQuerySchema = z
  .string({ error: "q must be text" })
  .max(SEARCH_QUERY_MAX, `q must be at most ${SEARCH_QUERY_MAX} characters`)
  .transform((q) => q.trim());

/**
 * The words of a query: runs of letters, digits and combining marks (so "e-mail me@x.com" is e, mail,
 * me, x, com, as both indexes split it), NFC, each once, the first 8. Case is left to each engine
 * (SQLite folds all of Unicode; PostgreSQL as its locale says). Empty: nothing to search for.
 */
export function searchWords(q: string): string[] {
  const words = q.normalize("NFC").match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return [...new Set(words.filter((word) => /[\p{L}\p{N}]/u.test(word)))].slice(0, SEARCH_WORDS_MAX);
}

type Page = "all" | "page" | "after";
export type SearchParameters = {
  userId: string;
  query: string;
  limit?: number;
  offset?: number;
  pinned?: number;
  updatedAt?: string;
  id?: string;
};

/** Matches, read from the match (content-search-match.server.ts), in the list's order (its plan is tested). */
export function searchQuery(database: Kysely<Database>, p: SearchParameters, page: Page) {
  let query = matchingRows(database, p.query, p.userId);
  if (page === "after") {
    query = query.where(({ eb, refTuple, tuple }) =>
      eb(
        refTuple("content_items.pinned", "content_items.updated_at", "content_items.id"),
        "<",
        tuple(p.pinned!, p.updatedAt!, p.id!),
      ),
    );
  }
  const ordered = query
    .orderBy("content_items.pinned", "desc")
    .orderBy("content_items.updated_at", "desc")
    .orderBy("content_items.id", "desc");
  if (page === "after") return ordered.limit(p.limit!);
  return page === "page" ? ordered.limit(p.limit!).offset(p.offset!) : ordered;
}

const searchItems = compileOnce((database: Kysely<Database>, p: SearchParameters, page: Page) =>
  searchQuery(database, p, page).select([
    "content_items.id",
    "content_items.title",
    "content_items.body",
    "content_items.pinned",
    "content_items.updated_at",
  ]),
);

const searchSummaries = compileOnce((database: Kysely<Database>, p: SearchParameters, page: Page) =>
  searchQuery(database, p, page).select([
    "content_items.id",
    "content_items.title",
    "content_items.pinned",
    "content_items.updated_at",
  ]),
);

/** How many match: read from the match too, so it costs what the matches number. */
const searchCount = compileOnce((database: Kysely<Database>, p: { userId: string; query: string }) =>
  matchingRows(database, p.query, p.userId).select((eb) => eb.fn.countAll<number>().as("count")),
);

export interface SearchOptions {
  limit?: number;
  offset?: number;
  /** Start right after this row of the list's order (keyset paging; with `limit`, instead of `offset`). */
  after?: ContentKey;
  /** false: the caller shows no total, so none is counted (`total` is then what the page tells, or -1). */
  count?: boolean;
}

type PageArguments = { page: Page; limit?: number; offset?: number; pinned?: number; updatedAt?: string; id?: string };

/** limit/offset/after as the list takes them: no limit means all; SQL wants a LIMIT before an OFFSET. */
function pageOf({ limit, offset, after }: SearchOptions): PageArguments {
  if (after) return { page: "after", limit: limit ?? Number.MAX_SAFE_INTEGER, ...after };
  if (limit === undefined && !offset) return { page: "all" };
  return { page: "page", limit: limit ?? Number.MAX_SAFE_INTEGER, offset: offset ?? 0 };
}

export interface SearchResult<T> {
  /** The page of matches asked for. */
  items: T[];
  /** How many of the person's items match in all (-1: not counted, as the options asked). */
  total: number;
}

/**
 * A page of matches and their total. The page is read by the list or from the match, as a bounded
 * look at the match decides (content-search-plan.server.ts); both give the same rows. The total is
 * counted by a second query only when the page cannot tell it (a full page, past the end, or a page
 * after a cursor) and the caller shows it, from the match: a screen's total costs what the matches number.
 */
async function searchPage<T>(
  userId: string,
  q: string,
  options: SearchOptions,
  bodies: boolean,
  shape: (row: WalkedRow) => T,
  run: (query: string, page: PageArguments) => Promise<T[]>,
): Promise<SearchResult<T>> {
  const words = searchWords(q);
  if (words.length === 0) return { items: [], total: 0 };
  // SQLite's index holds the person's latest texts before it is read (content-search-behind.server.ts).
  await catchUpSearchIndex(userId);
  let query = queryText(db, words, userId);
  let check = query;
  let textCheck: string | null = null;
  if (engineOf(db) === "sqlite") {
    const exact = await exactQueries(db, words, userId);
    // A word that no indexed word starts with: nothing matches, and nothing more is read.
    if (exact === null) return { items: [], total: 0 };
    ({ person: query, anyone: check, textCheck } = exact);
  }
  const page = pageOf(options);
  let items: T[] | null = null;
  if (options.limit !== undefined && options.limit <= 1000 && (await manyMatches(db, userId, query))) {
    const walked = await walkPage(
      db,
      userId,
      check,
      { limit: options.limit, offset: options.after ? 0 : (options.offset ?? 0), after: options.after, bodies },
      textCheck,
    );
    if (walked) items = walked.map(shape);
  }
  items ??= await run(query, page);
  const start = options.offset ?? 0;
  const pageTellsTotal =
    !options.after &&
    (options.limit === undefined || items.length < options.limit) &&
    (items.length > 0 || start === 0);
  if (pageTellsTotal) return { items, total: start + items.length };
  if (options.count === false) return { items, total: -1 };
  return { items, total: Number((await searchCount.firstOrThrow(db, { userId, query })).count) };
}

const shapeItem = (row: WalkedRow): ContentItem => ({
  id: row.id,
  title: row.title,
  body: row.body ?? "",
  pinned: Boolean(row.pinned),
  updated_at: row.updated_at,
});

const shapeSummary = (row: WalkedRow): ContentSummary => ({
  id: row.id,
  title: row.title,
  pinned: Boolean(row.pinned),
  updated_at: row.updated_at,
});

/** The person's items matching `q` (full items, as GET /api/content answers them), and how many match; none when q has no words. */
export async function searchContent(
  userId: string,
  q: string,
  options: SearchOptions = {},
): Promise<SearchResult<ContentItem>> {
  return searchPage(userId, q, options, true, shapeItem, async (query, { page, ...values }) =>
    (await searchItems.all(db, { userId, query, ...values }, page)).map(shapeItem),
  );
}

/** As searchContent, without the bodies (the dashboard list). */
export async function searchContentSummaries(
  userId: string,
  q: string,
  options: SearchOptions = {},
): Promise<SearchResult<ContentSummary>> {
  return searchPage(userId, q, options, false, shapeSummary, async (query, { page, ...values }) =>
    (await searchSummaries.all(db, { userId, query, ...values }, page)).map(shapeSummary),
  );
}

/** How many of the person's items match `q`. */
export async function countContentMatches(userId: string, q: string): Promise<number> {
  const words = searchWords(q);
  if (words.length === 0) return 0;
  await catchUpSearchIndex(userId);
  const row = await searchCount.firstOrThrow(db, { userId, query: queryText(db, words, userId) });
  return Number(row.count);
}

export interface ContextHitOptions {
  /** At most this many items. */
  limit: number;
  /** Each body is cut to this many characters (by the database: the rest is never sent). */
  bodyChars: number;
}

/**
 * The assistant's context (app/services/assistant/assistant.server.ts): at most `limit` of the person's items
 * that match the words, bodies cut to `bodyChars`. The items with every word come first, then, to fill
 * the rest, those with any of them; each group in the list's order (pinned, then most recent). Two
 * queries with a LIMIT, each read from the match, whatever the person has stored: the context and the
 * work stay the same size for a person with 10 items or 10,000 long ones.
 */
export async function contextHits(userId: string, terms: string[], options: ContextHitOptions): Promise<ContentItem[]> {
  const words = searchWords(terms.join(" "));
  if (words.length === 0 || options.limit < 1) return [];
  await catchUpSearchIndex(userId);
  const select = (query: string, limit: number, except: string[]) => {
    let q = matchingRows(db, query, userId).select([
      "content_items.id",
      "content_items.title",
      "content_items.pinned",
      "content_items.updated_at",
      sql<string>`substr(content_items.body, 1, ${options.bodyChars})`.as("body"),
    ]);
    if (except.length > 0) q = q.where("content_items.id", "not in", except);
    return q
      .orderBy("content_items.pinned", "desc")
      .orderBy("content_items.updated_at", "desc")
      .orderBy("content_items.id", "desc")
      .limit(limit)
      .execute();
  };
  const rows = await select(queryText(db, words, userId), options.limit, []);
  if (rows.length < options.limit && words.length > 1) {
    const any = queryText(db, words, userId, true);
    rows.push(
      ...(await select(
        any,
        options.limit - rows.length,
        rows.map((row) => row.id),
      )),
    );
  }
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    body: row.body,
    pinned: Boolean(row.pinned),
    updated_at: row.updated_at,
  }));
}
