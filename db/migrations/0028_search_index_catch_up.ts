import { sql, type Kysely } from "kysely";
import { engineOf } from "../portable";

/**
 * SQLite: a change of a piece's text no longer rewrites the full-text index in the same statement
 * (docs/decisions/0080-autosave-cost-given-back.md, "The search index catches up before it is read").
 * FTS5 writes a new index segment, its structure record and its averages at every commit that touches
 * it: half of an autosave's SQL work and six of its ten WAL pages. Now the first change of a piece
 * after the index last caught up keeps, in content_items_search_behind, the text the index still holds
 * for it; later changes write nothing more. Before anything reads the index, the reader's own pieces
 * are brought up to date (app/models/content/content-search-behind.server.ts), and the hourly upkeep brings
 * everyone's. Inserts, deletes and a change of owner still change the index at once; a delete or a
 * change of owner takes out the text the index holds (the kept one, if any).
 *
 * Invariant: for every piece, the index holds its kept row's text if it has one, else its own text.
 * The kept row is keyed by the person (the owner when it was kept: a change of owner never leaves one)
 * so a person's catch-up is a range of the primary key. PostgreSQL: nothing (its GIN index is
 * maintained by the engine at no extra statement).
 */
const SEARCH_UPDATE_0009 = `create trigger content_items_search_update after update of title, body, user_id on content_items begin
  insert into content_items_search (content_items_search, rowid, title, body, user_id) values ('delete', old.rowid, old.title, old.body, old.user_id);
  insert into content_items_search (rowid, title, body, user_id) values (new.rowid, new.title, new.body, new.user_id);
end`;
const SEARCH_DELETE_0009 = `create trigger content_items_search_delete after delete on content_items begin
  insert into content_items_search (content_items_search, rowid, title, body, user_id) values ('delete', old.rowid, old.title, old.body, old.user_id);
end`;

/** Takes the text the index holds for OLD out of it: the kept row's if there is one, else OLD's own; and forgets the kept row. */
const TAKE_OUT_OLD = `
  insert into content_items_search (content_items_search, rowid, title, body, user_id)
    select 'delete', old.rowid, old.title, old.body, old.user_id
    where not exists (select 1 from content_items_search_behind where user_id = old.user_id and item = old.rowid);
  insert into content_items_search (content_items_search, rowid, title, body, user_id)
    select 'delete', item, title, body, user_id from content_items_search_behind where user_id = old.user_id and item = old.rowid;
  delete from content_items_search_behind where user_id = old.user_id and item = old.rowid;`;

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") return;
  await sql`create table content_items_search_behind (
    user_id text not null, item integer not null, title text not null, body text not null,
    primary key (user_id, item)) without rowid`.execute(db);
  await sql`drop trigger content_items_search_update`.execute(db);
  await sql`drop trigger content_items_search_delete`.execute(db);
  // Same owner: keep what the index holds, once (a later change keeps the first kept text).
  await sql
    .raw(
      `create trigger content_items_search_update after update of title, body, user_id on content_items
      when old.user_id is new.user_id begin
        insert or ignore into content_items_search_behind (user_id, item, title, body)
          values (old.user_id, old.rowid, old.title, old.body);
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger content_items_search_owner after update of title, body, user_id on content_items
      when old.user_id is not new.user_id begin${TAKE_OUT_OLD}
        insert into content_items_search (rowid, title, body, user_id) values (new.rowid, new.title, new.body, new.user_id);
      end`,
    )
    .execute(db);
  await sql
    .raw(`create trigger content_items_search_delete after delete on content_items begin${TAKE_OUT_OLD}\nend`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") return;
  // Bring every kept piece up to date first, then put 0009's triggers back.
  await sql`insert into content_items_search (content_items_search, rowid, title, body, user_id)
    select 'delete', item, title, body, user_id from content_items_search_behind`.execute(db);
  await sql`insert into content_items_search (rowid, title, body, user_id)
    select c.rowid, c.title, c.body, c.user_id from content_items_search_behind b join content_items c on c.rowid = b.item`.execute(
    db,
  );
  for (const trigger of ["content_items_search_update", "content_items_search_owner", "content_items_search_delete"]) {
    await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table content_items_search_behind`.execute(db);
  await sql.raw(SEARCH_UPDATE_0009).execute(db);
  await sql.raw(SEARCH_DELETE_0009).execute(db);
}
