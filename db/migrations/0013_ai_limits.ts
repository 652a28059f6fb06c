import type { Kysely } from "kysely";

/**
 * Per-person AI limits (docs/decisions/0038): one row per AI request a person made (any
 * capability, any instance), so the limits hold across instances sharing the database:
 * - requests in the last minute: the person's rows by started_at (index ai_requests_user_started);
 *   a later daily cap counts the person's rows since midnight with the same index;
 * - requests running now: rows whose heartbeat_at is recent. The instance working a request moves
 *   heartbeat_at while it runs and clears it when the request ends; a killed instance's rows stop
 *   beating and no longer count once their heartbeat is stale (index ai_requests_user_heartbeat).
 * Rows older than a day are pruned by the housekeeping. Portable SQL (see 0001): text ids, ISO timestamps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("ai_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("heartbeat_at", "text")
    .addColumn("finished_at", "text")
    .execute();
  await db.schema
    .createIndex("ai_requests_user_started")
    .on("ai_requests")
    .columns(["user_id", "started_at"])
    .execute();
  await db.schema
    .createIndex("ai_requests_user_heartbeat")
    .on("ai_requests")
    .columns(["user_id", "heartbeat_at"])
    .execute();
  // The housekeeping's prune of rows older than a day, across people.
  await db.schema.createIndex("ai_requests_started").on("ai_requests").column("started_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ai_requests").execute();
}
