import { sql, type Kysely } from "kysely";
import { engineOf } from "../../../db/portable";
import type { Database } from "~/lib/db/db-schema";
import { db } from "~/lib/db/db.server";

/**
 * SQLite's search index catches up before it is read (docs/decisions/0080-autosave-cost-given-back.md,
 * "The search index catches up before it is read"; migration 0028). A change of a piece's text keeps, in
 * content_items_search_behind, the text the index still holds for it (the first change since the last
 * catch-up only) instead of rewriting the index at every save. Every read of the index first brings
 * the reader's own pieces up to date, in one transaction, so each search answers exactly as if every
 * save had rewritten the index; the hourly upkeep brings everyone's. PostgreSQL: nothing to do (its
 * GIN index is the engine's own).
 */

/** How many kept pieces one transaction of the upkeep's catch-up brings up to date. */
export const CATCH_UP_BATCH = 500;

/**
 * The statements of a catch-up over the kept rows `where` picks: out with the text the index holds, in
 * with the piece's own. Answers how many pieces it brought up to date.
 */
async function catchUp(trx: Kysely<Database>, where: ReturnType<typeof sql>): Promise<number> {
  await sql`insert into content_items_search (content_items_search, rowid, title, body, user_id)
    select 'delete', item, title, body, user_id from content_items_search_behind where ${where}`.execute(trx);
  await sql`insert into content_items_search (rowid, title, body, user_id)
    select c.rowid, c.title, c.body, c.user_id from content_items_search_behind
    join content_items c on c.rowid = content_items_search_behind.item where ${where}`.execute(trx);
  const done = await sql`delete from content_items_search_behind where ${where}`.execute(trx);
  return Number(done.numAffectedRows ?? 0);
}

/** Brings the person's pieces up to date in SQLite's index; a seek and nothing more when none is behind. */
export async function catchUpSearchIndex(userId: string): Promise<void> {
  if (engineOf(db) === "postgres") return;
  const behind = await sql<{ one: number }>`select 1 as one from content_items_search_behind
    where user_id = ${userId} limit 1`.execute(db);
  if (behind.rows.length === 0) return;
  await db.transaction().execute((trx) => catchUp(trx, sql`content_items_search_behind.user_id = ${userId}`));
}

/** Brings everyone's pieces up to date, CATCH_UP_BATCH a transaction (the hourly upkeep). */
export async function catchUpAllSearchIndex(batch = CATCH_UP_BATCH): Promise<void> {
  if (engineOf(db) === "postgres") return;
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      const first = sql`(content_items_search_behind.user_id, content_items_search_behind.item) in
        (select user_id, item from content_items_search_behind order by user_id, item limit ${batch})`;
      return (await catchUp(trx, first)) < batch;
    });
    if (done) return;
  }
}
