import type { Kysely } from "kysely";

/**
 * Share links (docs/decisions/0069): one row per link a person made for a content piece, a library file
 * or a project. The token itself is never stored in the clear: `token_hash` (SHA-256, hex) finds the
 * row, `token_sealed` (AES-256-GCM under a key from the session secret) lets the owner's list show the
 * link again. `target_id` is not a foreign key (it names one of three tables); a deleted target makes
 * the link "gone" when it is opened. A person's links go with the account (cascade).
 * Portable SQL (see 0001): text ids, ISO timestamps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("shares")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("target_id", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("token_sealed", "text", (c) => c.notNull())
    .addColumn("expires_at", "text")
    .addColumn("max_views", "integer")
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("revoked_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // A person's list, newest first.
  await db.schema.createIndex("shares_user").on("shares").columns(["user_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("shares").execute();
}
