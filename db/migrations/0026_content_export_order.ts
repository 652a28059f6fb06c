import type { Kysely } from "kysely";

/**
 * The account export reads a person's pieces oldest first (`order by created_at, id`) in keyset
 * batches as the zip reaches them (docs/decisions/0078). Without an index of that order SQLite
 * walked every piece's row (created_at is stored after the body, on its overflow pages) and sorted
 * them all before the first byte; with it each batch is a range of this index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("content_items_user_created")
    .on("content_items")
    .columns(["user_id", "created_at", "id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("content_items_user_created").execute();
}
