import { sql, type Kysely, type RawBuilder } from "kysely";
import { z } from "zod";
import { compileOnce } from "~/lib/compiled-query.server";
import { engineOf } from "~/lib/db-dialect.server";
import type { Database } from "~/lib/db-schema";
import { db } from "~/lib/db.server";
import type { ContentItem, ContentSummary } from "./content.server";

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

/**
 * FTS5: the person's entries (the id as a phrase in the user_id column), and in title or body each
 * word as a quoted prefix, all required. Words hold no quotes (letters, digits and marks only); the id
 * is ours, its quotes doubled all the same.
 */
export function ftsQuery(words: string[], userId: string): string {
  return `user_id : "${userId.replace(/"/g, '""')}" AND {title body} : (${words.map((word) => `"${word}"*`).join(" ")})`;
}

/** PostgreSQL to_tsquery: each word a quoted prefix lexeme, all required. */
export function tsQuery(words: string[]): string {
  return words.map((word) => `'${word}':*`).join(" & ");
}

/** The engine's match condition on content_items for a query built by ftsQuery / tsQuery. */
function matches(database: Kysely<Database>, query: string): RawBuilder<boolean> {
  return engineOf(database) === "postgres"
    ? sql<boolean>`content_search_document(content_items.title, content_items.body) @@ to_tsquery('simple', ${query})`
    : sql<boolean>`content_items.rowid in (select rowid from content_items_search where content_items_search match ${query})`;
}

function queryText(database: Kysely<Database>, words: string[], userId: string): string {
  return engineOf(database) === "postgres" ? tsQuery(words) : ftsQuery(words, userId);
}

type Page = "all" | "page";
type SearchParameters = { userId: string; query: string; limit?: number; offset?: number };

/** Matches, in the dashboard's order (the index content_items_user_list serves the order and the user). */
function searchQuery(database: Kysely<Database>, p: SearchParameters, page: Page) {
  const query = database
    .selectFrom("content_items")
    .where("user_id", "=", p.userId)
    .where(matches(database, p.query))
    .orderBy("pinned", "desc")
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc");
  return page === "page" ? query.limit(p.limit!).offset(p.offset!) : query;
}

const searchItems = compileOnce((database: Kysely<Database>, p: SearchParameters, page: Page) =>
  searchQuery(database, p, page).select(["id", "title", "body", "pinned", "updated_at"]),
);

const searchSummaries = compileOnce((database: Kysely<Database>, p: SearchParameters, page: Page) =>
  searchQuery(database, p, page).select(["id", "title", "pinned", "updated_at"]),
);

const searchCount = compileOnce((database: Kysely<Database>, p: { userId: string; query: string }) =>
  database
    .selectFrom("content_items")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", p.userId)
    .where(matches(database, p.query)),
);

export interface SearchOptions {
  limit?: number;
  offset?: number;
}

/** limit/offset as the list takes them: no limit means all; SQL wants a LIMIT before an OFFSET. */
function pageOf({ limit, offset }: SearchOptions): { page: Page; limit?: number; offset?: number } {
  if (limit === undefined && !offset) return { page: "all" };
  return { page: "page", limit: limit ?? Number.MAX_SAFE_INTEGER, offset: offset ?? 0 };
}

export interface SearchResult<T> {
  /** The page of matches asked for. */
  items: T[];
  /** How many of the person's items match in all. */
  total: number;
}

/**
 * A page of matches and their total. The total is counted by a second query only when the page
 * cannot tell it (a full page, or past the end): a search with fewer matches than a page costs one.
 */
async function searchPage<T>(
  userId: string,
  q: string,
  options: SearchOptions,
  run: (query: string, page: ReturnType<typeof pageOf>) => Promise<T[]>,
): Promise<SearchResult<T>> {
  const words = searchWords(q);
  if (words.length === 0) return { items: [], total: 0 };
  const query = queryText(db, words, userId);
  const items = await run(query, pageOf(options));
  const start = options.offset ?? 0;
  const pageTellsTotal =
    (options.limit === undefined || items.length < options.limit) && (items.length > 0 || start === 0);
  const total = pageTellsTotal
    ? start + items.length
    : Number((await searchCount.firstOrThrow(db, { userId, query })).count);
  return { items, total };
}

/** The person's items matching `q` (full items, as GET /api/content answers them), and how many match; none when q has no words. */
export async function searchContent(
  userId: string,
  q: string,
  options: SearchOptions = {},
): Promise<SearchResult<ContentItem>> {
  return searchPage(userId, q, options, async (query, { page, limit, offset }) => {
    const rows = await searchItems.all(db, { userId, query, limit, offset }, page);
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      body: row.body,
      pinned: Boolean(row.pinned),
      updated_at: row.updated_at,
    }));
  });
}

/** As searchContent, without the bodies (the dashboard list). */
export async function searchContentSummaries(
  userId: string,
  q: string,
  options: SearchOptions = {},
): Promise<SearchResult<ContentSummary>> {
  return searchPage(userId, q, options, async (query, { page, limit, offset }) => {
    const rows = await searchSummaries.all(db, { userId, query, limit, offset }, page);
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      pinned: Boolean(row.pinned),
      updated_at: row.updated_at,
    }));
  });
}

/** How many of the person's items match `q`. */
export async function countContentMatches(userId: string, q: string): Promise<number> {
  const words = searchWords(q);
  if (words.length === 0) return 0;
  const row = await searchCount.firstOrThrow(db, { userId, query: queryText(db, words, userId) });
  return Number(row.count);
}

/** FTS5: the person's entries with any of the words (each a quoted prefix) in title or body. */
export function ftsAnyQuery(words: string[], userId: string): string {
  return `user_id : "${userId.replace(/"/g, '""')}" AND {title body} : (${words.map((word) => `"${word}"*`).join(" OR ")})`;
}

/** PostgreSQL to_tsquery: any of the words, each a quoted prefix lexeme. */
export function tsAnyQuery(words: string[]): string {
  return words.map((word) => `'${word}':*`).join(" | ");
}

export interface ContextHitOptions {
  /** At most this many items. */
  limit: number;
  /** Each body is cut to this many characters (by the database: the rest is never sent). */
  bodyChars: number;
}

/**
 * The assistant's context (app/services/assistant.server.ts): at most `limit` of the person's items
 * that match the words, bodies cut to `bodyChars`. The items with every word come first, then, to fill
 * the rest, those with any of them; each group in the list's order (pinned, then most recent). Two
 * queries with a LIMIT on the person's index, whatever the person has stored: the context and the
 * work stay the same size for a person with 10 items or 10,000 long ones.
 */
export async function contextHits(userId: string, terms: string[], options: ContextHitOptions): Promise<ContentItem[]> {
  const words = searchWords(terms.join(" "));
  if (words.length === 0 || options.limit < 1) return [];
  const postgres = engineOf(db) === "postgres";
  const select = (query: string, limit: number, except: string[]) => {
    let q = db
      .selectFrom("content_items")
      .select([
        "id",
        "title",
        "pinned",
        "updated_at",
        sql<string>`substr(content_items.body, 1, ${options.bodyChars})`.as("body"),
      ])
      .where("user_id", "=", userId)
      .where(matches(db, query));
    if (except.length > 0) q = q.where("id", "not in", except);
    return q.orderBy("pinned", "desc").orderBy("updated_at", "desc").orderBy("id", "desc").limit(limit).execute();
  };
  const rows = await select(postgres ? tsQuery(words) : ftsQuery(words, userId), options.limit, []);
  if (rows.length < options.limit && words.length > 1) {
    const any = postgres ? tsAnyQuery(words) : ftsAnyQuery(words, userId);
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
