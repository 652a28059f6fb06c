import { sql, type Kysely } from "kysely";
import { engineOf } from "../portable";

/**
 * SQLite: the index's words read by seeks (docs/decisions/0077-search-from-the-match.md, "The plan").
 * 0025's fts5vocab `row` view counts every entry of each word it lists (a word in every piece, everyone's,
 * costs a pass over all of them); the `instance` view answers a word's first entry at once, so a search
 * finds the words starting with what was typed one seek each. Replaces 0025's view. PostgreSQL: nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") return;
  await sql`drop table content_items_search_terms`.execute(db);
  await sql`create virtual table content_items_search_instance_terms using fts5vocab(content_items_search, instance)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") return;
  await sql`drop table content_items_search_instance_terms`.execute(db);
  await sql`create virtual table content_items_search_terms using fts5vocab(content_items_search, row)`.execute(db);
}
