import type { Kysely } from "kysely";

/**
 * Feedback messages per client address (anyone may send them, no account needed): counted in a sliding
 * hour so one address cannot fill the database (FEEDBACK_MAX_PER_ADDRESS). The shape of 0006's
 * registration_attempts. Portable SQL (see 0001): text ids, ISO timestamps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("feedback_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("client_address", "text", (c) => c.notNull())
    .addColumn("attempted_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("feedback_attempts_address")
    .on("feedback_attempts")
    .columns(["client_address", "attempted_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("feedback_attempts").execute();
}
