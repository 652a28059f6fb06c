import { sql, type Kysely } from "kysely";
import { engineOf } from "../portable";

/**
 * Full-text search over content titles and bodies (docs/decisions/0019), one index per
 * engine, both named `content_items_search`, both filled from the rows already there:
 *
 * - SQLite: an FTS5 table over content_items (external content: it keeps only the index, the text
 *   stays in content_items), kept in step by triggers on insert, delete and a change of title or body
 *   (a pin does not touch it). It indexes user_id too, so a search reads only the person's entries
 *   (`user_id : "<id>" AND {title body} : (…)`), not every match of a common word among everyone's
 *   content. Rows are joined on content_items' rowid; should rowids ever be
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
    // PL/pgSQL, not SQL: an SQL function would be inlined, and the planner would price its body as
    // cheap and filter the person's rows by recomputing it (37 us a row) instead of reading the index.
    // Its cost says what it is: a parse of the whole text.
    await sql`
      create function content_search_document(title text, body text) returns tsvector
      language plpgsql immutable parallel safe cost 10000
      as $$ begin return to_tsvector('simple'::regconfig, regexp_replace(title || ' ' || body, ${sql.lit(SEPARATORS)}, ' ', 'g')); end $$`.execute(
      db,
    );
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
      title, body, user_id, content = 'content_items', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 0'
    )`.execute(db);
  await sql`
    create trigger content_items_search_insert after insert on content_items begin
      insert into content_items_search (rowid, title, body, user_id) values (new.rowid, new.title, new.body, new.user_id);
    end`.execute(db);
  await sql`
    create trigger content_items_search_delete after delete on content_items begin
      insert into content_items_search (content_items_search, rowid, title, body, user_id) values ('delete', old.rowid, old.title, old.body, old.user_id);
    end`.execute(db);
  await sql`
    create trigger content_items_search_update after update of title, body, user_id on content_items begin
      insert into content_items_search (content_items_search, rowid, title, body, user_id) values ('delete', old.rowid, old.title, old.body, old.user_id);
      insert into content_items_search (rowid, title, body, user_id) values (new.rowid, new.title, new.body, new.user_id);
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
