import type { Kysely } from "kysely";

// Portable SQL only (see 0001): text ids, ISO-8601 timestamps as text, pinned as integer 0/1.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("content_items")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("pinned", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // Serves the dashboard list (WHERE user_id = ? ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ?)
  // straight from the index, with no sort step, and the per-user count.
  await db.schema
    .createIndex("content_items_user_list")
    .on("content_items")
    .columns(["user_id", "pinned", "updated_at", "id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("content_items").execute();
}
