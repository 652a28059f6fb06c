import { sql, type Kysely } from "kysely";

/**
 * The account screen (docs/decisions/0047):
 * - sessions: one row per sign-in (a refresh-token family; its id is the family's id), with the device
 *   it was made from (a label read from the User-Agent at sign-in) and when it was last used (moved at
 *   most once a minute). Whether a session is live stays where it always was, in refresh_tokens (a live
 *   token of the family); this table only names and dates it. Families live when this migration runs
 *   get a row each ("Unknown device", last used when their newest token was made).
 * - api_tokens: a person's personal API tokens, stored only as the SHA-256 of the token; a revoked
 *   token's row is deleted.
 * Portable SQL (see 0001): text ids, ISO timestamps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("device", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user").on("sessions").columns(["user_id", "last_used_at"]).execute();
  await sql`insert into sessions (id, user_id, device, created_at, last_used_at)
    select family_id, min(user_id), 'Unknown device', min(created_at), max(created_at)
    from refresh_tokens where revoked_at is null group by family_id`.execute(db);

  await db.schema
    .createTable("api_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("api_tokens_user").on("api_tokens").columns(["user_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_tokens").execute();
  await db.schema.dropTable("sessions").execute();
}
