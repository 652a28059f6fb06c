import type { Kysely } from "kysely";

/**
 * Keyset paging of the library (docs/decisions/0076-paging-by-cursor.md): its orders end in the id,
 * so a page after a cursor is one range of an index whose columns are the order's own, on both
 * engines. The indexes of 0008 were prefixes of these and go.
 *
 * - newest / oldest first: (user_id, created_at, id)
 * - largest / smallest first: (user_id, size, created_at, id)
 *
 * The content list needs nothing new: content_items_user_list (0002) is (user_id, pinned, updated_at,
 * id) already. Search needs nothing new either (docs/decisions/0077-search-from-the-match.md): SQLite's
 * FTS5 table indexes user_id, and PostgreSQL's GIN index on content_search_document (0009) is what the
 * query now starts from.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("media_files_user_created_id")
    .on("media_files")
    .columns(["user_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("media_files_user_size_created_id")
    .on("media_files")
    .columns(["user_id", "size", "created_at", "id"])
    .execute();
  await db.schema.dropIndex("media_files_user_created").execute();
  await db.schema.dropIndex("media_files_user_size").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("media_files_user_created")
    .on("media_files")
    .columns(["user_id", "created_at"])
    .execute();
  await db.schema.createIndex("media_files_user_size").on("media_files").columns(["user_id", "size"]).execute();
  await db.schema.dropIndex("media_files_user_created_id").execute();
  await db.schema.dropIndex("media_files_user_size_created_id").execute();
}
