import type { Kysely } from "kysely";
import { BYTE_COUNT_TYPE } from "../portable";

/**
 * User files (voices, videos; later speech, images, AI video): one row per file, the bytes on disk
 * under DATA_DIR/media by the row's random id (app/lib/storage/storage.server.ts). Portable SQL (see 0001).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("media_files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    // bigint on both engines (videos of 2 GiB and more exceed PostgreSQL's int4; INTEGER affinity on SQLite).
    .addColumn("size", BYTE_COUNT_TYPE, (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // A display name is unique per user and kind; the index also serves every lookup by name.
  await db.schema
    .createIndex("media_files_user_kind_name")
    .on("media_files")
    .columns(["user_id", "kind", "name"])
    .unique()
    .execute();
  // Lists: WHERE user_id = ? AND kind = ? ORDER BY created_at DESC.
  await db.schema
    .createIndex("media_files_user_kind_created")
    .on("media_files")
    .columns(["user_id", "kind", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("media_files").execute();
}
