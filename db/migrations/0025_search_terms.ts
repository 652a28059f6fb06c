import { sql, type Kysely } from "kysely";
import { engineOf } from "../portable";

/**
 * SQLite: the words of the search index as a table (fts5vocab over content_items_search, no storage of
 * its own), so a search turns each typed word into the index's own words that start with it and asks
 * FTS5 for those exact words (docs/decisions/0077-search-from-the-match.md, "The plan"). A prefix query
 * (`"harb"*`) makes FTS5 merge the whole of every matching word's entries, everyone's, on each query; an
 * exact word is a seek. PostgreSQL: nothing (its GIN index is read by the planner as it is).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") return;
  await sql`create virtual table content_items_search_terms using fts5vocab(content_items_search, row)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") return;
  await sql`drop table content_items_search_terms`.execute(db);
}
