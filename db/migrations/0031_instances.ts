import type { Kysely } from "kysely";

/**
 * The instances of the studio sharing this database (`npm run admin -- status`, docs/operating.md):
 * each running server writes its row every 30 s (the housekeeping's heartbeat), so the command can
 * say which instances were seen lately. `id` is the instance id (INSTANCE_ID, else `<host>-<port>`,
 * as its temporary folder is named); `metrics_port` is METRICS_PORT when set. Rows not seen for a
 * week are pruned. Portable SQL (see 0001): text ids, ISO timestamps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("instances")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("host", "text", (c) => c.notNull())
    .addColumn("pid", "integer", (c) => c.notNull())
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("seen_at", "text", (c) => c.notNull())
    .addColumn("metrics_port", "integer")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("instances").execute();
}
