import { sql, type Kysely } from "kysely";
import { engineOf } from "../portable";

/**
 * Full-text search over content titles and bodies (issue 15; docs/decisions/0019), one index per
 * engine, both named `content_items_search`, both filled from the rows already there:
 *
 * - SQLite: an FTS5 table over content_items (external content: it keeps only the index, the text
 *   stays in content_items), kept in step by triggers on insert, delete and a change of title or body
 *   (a pin does not touch it). Rows are joined on content_items' rowid; should rowids ever be
 *   renumbered (a VACUUM of a table without an integer primary key may), `insert into
 *   content_items_search(content_items_search) values ('rebuild')` rebuilds the index.
 * - PostgreSQL: a GIN index on the words of title and body, `content_search_document(title, body)`,
 *   an immutable SQL function so that the index and the model's query share one definition.
 *
 * Both use no stemming and no stop words, and keep accents ("cafe" does not find "café"), so the same
 * words find the same items on either engine. PostgreSQL's parser keeps punctuation inside words
 * (e-mail addresses, "“quoted”" words, "l’amour"), which SQLite's unicode61 tokenizer splits on: the
 * function turns ASCII punctuation and the common Unicode punctuation, symbol and emoji blocks into
 * spaces first, so words split alike.
 */
const SEPARATORS =
  "[[:punct:]\\u00a0-\\u00bf\\u00d7\\u00f7\\u2000-\\u2bff\\u3000-\\u303f\\ufe10-\\ufe6f\\uff01-\\uff0f\\uff1a-\\uff20\\uff3b-\\uff40\\uff5b-\\uff65\\U0001f000-\\U0001faff]+";

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`
      create function content_search_document(title text, body text) returns tsvector
      language sql immutable parallel safe
      as $$ select to_tsvector('simple'::regconfig, regexp_replace(title || ' ' || body, ${sql.lit(SEPARATORS)}, ' ', 'g')) $$`.execute(db);
    // Building the index reads every existing row: the backfill.
    await db.schema
      .createIndex("content_items_search")
      .on("content_items")
      .using("gin")
      .expression(sql`content_search_document(title, body)`)
      .execute();
    return;
  }
  await sql`
    create virtual table content_items_search using fts5(
      title, body, content = 'content_items', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 0'
    )`.execute(db);
  await sql`
    create trigger content_items_search_insert after insert on content_items begin
      insert into content_items_search (rowid, title, body) values (new.rowid, new.title, new.body);
    end`.execute(db);
  await sql`
    create trigger content_items_search_delete after delete on content_items begin
      insert into content_items_search (content_items_search, rowid, title, body) values ('delete', old.rowid, old.title, old.body);
    end`.execute(db);
  await sql`
    create trigger content_items_search_update after update of title, body on content_items begin
      insert into content_items_search (content_items_search, rowid, title, body) values ('delete', old.rowid, old.title, old.body);
      insert into content_items_search (rowid, title, body) values (new.rowid, new.title, new.body);
    end`.execute(db);
  // The rows stored before this migration.
  await sql`insert into content_items_search (content_items_search) values ('rebuild')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await db.schema.dropIndex("content_items_search").execute();
    await sql`drop function content_search_document(text, text)`.execute(db);
    return;
  }
  for (const trigger of ["content_items_search_insert", "content_items_search_delete", "content_items_search_update"]) {
    await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table content_items_search`.execute(db);
}
