import type { Kysely } from "kysely";

/**
 * Registrations per client address (each costs an argon2 hash): counted in a sliding window so one
 * address cannot create accounts without limit. Portable SQL (see 0001): text ids, ISO timestamps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("registration_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("client_address", "text", (c) => c.notNull())
    .addColumn("attempted_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("registration_attempts_address")
    .on("registration_attempts")
    .columns(["client_address", "attempted_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("registration_attempts").execute();
}
