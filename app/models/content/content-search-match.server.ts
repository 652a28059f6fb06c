import { sql, type Kysely, type SelectQueryBuilder } from "kysely";
import { engineOf } from "../../../db/portable";
import type { Database } from "~/lib/db/db-schema";

/**
 * The search query's text and its starting point on each engine (docs/decisions/0077-search-from-the-match.md).
 *
 * SQLite: the query starts from the FTS5 match and joins each matching entry to its row by rowid
 * (CROSS JOIN keeps that order: SQLite never reorders it). The match already holds the person's id
 * (the indexed user_id column of content_items_search), so it yields only their entries; the rows are
 * then sorted, which costs what the matches number, never what the person's list does. The user_id
 * condition on content_items stays as well: every query is scoped by the user's id.
 * PostgreSQL: the GIN index on content_search_document(title, body) (migration 0009) finds the rows;
 * the function's declared cost keeps the planner from walking the person's list and recomputing it.
 */

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

/** FTS5: the person's entries with any of the words (each a quoted prefix) in title or body. */
export function ftsAnyQuery(words: string[], userId: string): string {
  return `user_id : "${userId.replace(/"/g, '""')}" AND {title body} : (${words.map((word) => `"${word}"*`).join(" OR ")})`;
}

/** PostgreSQL to_tsquery: any of the words, each a quoted prefix lexeme. */
export function tsAnyQuery(words: string[]): string {
  return words.map((word) => `'${word}':*`).join(" | ");
}

/** The engine's query text for all the words (`any`: for any of them). */
export function queryText(database: Kysely<Database>, words: string[], userId: string, any = false): string {
  if (engineOf(database) === "postgres") return any ? tsAnyQuery(words) : tsQuery(words);
  return any ? ftsAnyQuery(words, userId) : ftsQuery(words, userId);
}

type ContentRows = SelectQueryBuilder<Database, "content_items", object>;

/**
 * The person's rows that match `query` (built by queryText), read from the match. Columns are named
 * with their table (`content_items.title`): on SQLite the FTS table has columns of the same names.
 * `query` and `userId` may be compileOnce stand-ins: they are passed into the SQL as values only.
 */
export function matchingRows(database: Kysely<Database>, query: string, userId: string): ContentRows {
  if (engineOf(database) === "postgres") {
    return database
      .selectFrom("content_items")
      .where("content_items.user_id", "=", userId)
      .where(
        sql<boolean>`content_search_document(content_items.title, content_items.body) @@ to_tsquery('simple', ${query})`,
      );
  }
  const fromMatch = database
    .selectFrom(sql`content_items_search`.as("content_items_search"))
    .crossJoin("content_items")
    .where(sql<boolean>`content_items.rowid = content_items_search.rowid`)
    .where(sql<boolean>`content_items_search match ${query}`)
    .where("content_items.user_id", "=", userId);
  // The FTS table is not one of the schema's tables; every column read is content_items'.
  return fromMatch as unknown as ContentRows;
}
