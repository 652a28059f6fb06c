import { sql, type Kysely, type RawBuilder } from "kysely";
import { z } from "zod";
import { compileOnce } from "~/lib/compiled-query.server";
import { engineOf } from "~/lib/db-dialect.server";
import type { Database } from "~/lib/db-schema";
import { db } from "~/lib/db.server";
import type { ContentItem, ContentSummary } from "./content.server";

/**
 * Content search (issue 15): the person's items whose title or body has every word of a query, each
 * word also matching as the start of a longer one ("robo" finds "robots"), in the list's own order
 * (pinned first, then most recently updated). Every query is scoped by the user's id.
 *
 * The index is the engine's own (db/migrations/0009_content_search.ts, docs/decisions/0019): SQLite's
 * FTS5 table content_items_search, PostgreSQL's GIN index on content_search_document(title, body).
 * The query is built here from the words of what the person typed, never passed through as search
 * syntax: words are runs of letters, digits and combining marks, each is quoted, so no input can be
 * a syntax error (FTS5 `"word"* "next"*`, PostgreSQL `'word':* & 'next':*`).
 */
export const SEARCH_QUERY_MAX = 500;
/** More words only narrow the result further; a query of 40 words is a paste, not a search. */
export const SEARCH_WORDS_MAX = 16;

/** `q`: optional; blank is no search (the plain list). At most 500 characters, so no word outgrows either index's limits. */
export const searchQuerySchema = z
  .string({ error: "q must be text" })
  .max(SEARCH_QUERY_MAX, `q must be at most ${SEARCH_QUERY_MAX} characters`)
  .transform((q) => q.trim());

/**
 * The words of a query: runs of letters, digits and combining marks (so "e-mail me@x.com" is e, mail,
 * me, x, com, as both indexes split it), NFC, each once, the first 16. Case is left to each engine
 * (SQLite folds all of Unicode; PostgreSQL as its locale says). Empty: nothing to search for.
 */
export function searchWords(q: string): string[] {
  const words = q.normalize("NFC").match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return [...new Set(words.filter((word) => /[\p{L}\p{N}]/u.test(word)))].slice(0, SEARCH_WORDS_MAX);
}

/** FTS5: each word a quoted prefix phrase, all required. Words hold no quotes (letters, digits and marks only). */
export function ftsQuery(words: string[]): string {
  return words.map((word) => `"${word}"*`).join(" ");
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

function queryText(database: Kysely<Database>, words: string[]): string {
  return engineOf(database) === "postgres" ? tsQuery(words) : ftsQuery(words);
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

/** The person's items matching `q` (full items, as GET /api/content answers them); [] when q has no words. */
export async function searchContent(userId: string, q: string, options: SearchOptions = {}): Promise<ContentItem[]> {
  const words = searchWords(q);
  if (words.length === 0) return [];
  const { page, limit, offset } = pageOf(options);
  const rows = await searchItems.all(db, { userId, query: queryText(db, words), limit, offset }, page);
  return rows.map((row) => ({ id: row.id, title: row.title, body: row.body, pinned: Boolean(row.pinned), updated_at: row.updated_at }));
}

/** As searchContent, without the bodies (the dashboard list). */
export async function searchContentSummaries(userId: string, q: string, options: SearchOptions = {}): Promise<ContentSummary[]> {
  const words = searchWords(q);
  if (words.length === 0) return [];
  const { page, limit, offset } = pageOf(options);
  const rows = await searchSummaries.all(db, { userId, query: queryText(db, words), limit, offset }, page);
  return rows.map((row) => ({ id: row.id, title: row.title, pinned: Boolean(row.pinned), updated_at: row.updated_at }));
}

/** How many of the person's items match `q`. */
export async function countContentMatches(userId: string, q: string): Promise<number> {
  const words = searchWords(q);
  if (words.length === 0) return 0;
  const row = await searchCount.firstOrThrow(db, { userId, query: queryText(db, words) });
  return Number(row.count);
}
