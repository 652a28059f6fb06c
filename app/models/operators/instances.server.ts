import { db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/ids.server";

/**
 * The studio servers sharing this database (db/migrations/0031): each one's heartbeat (the
 * housekeeping, every INSTANCE_HEARTBEAT_MS) writes its row, and `npm run admin -- status` lists those
 * seen lately. One statement per beat, the same on SQLite and PostgreSQL (an upsert on the id).
 */
export interface InstanceSeen {
  id: string;
  host: string;
  pid: number;
  version: string;
  /** When this process started (ISO). */
  startedAt: string;
  metricsPort: number | null;
}

export interface InstanceRow extends InstanceSeen {
  seenAt: string;
}

/** How often a running instance says it is there. */
export const INSTANCE_HEARTBEAT_MS = 30_000;
/** Seen within this long: running (four beats missed is gone). */
export const INSTANCE_RECENT_MS = 120_000;
/** Rows of instances not seen for this long are removed. */
export const INSTANCE_KEEP_MS = 7 * 24 * 60 * 60_000;

/** Writes this instance's row: made on its first beat, moved on every later one (a restart takes it over). */
export async function noteInstanceSeen(instance: InstanceSeen, now = new Date()): Promise<void> {
  const row = {
    host: instance.host,
    pid: instance.pid,
    version: instance.version,
    started_at: instance.startedAt,
    seen_at: nowIso(now),
    metrics_port: instance.metricsPort,
  };
  await db
    .insertInto("instances")
    .values({ id: instance.id, ...row })
    .onConflict((oc) => oc.column("id").doUpdateSet(row))
    .execute();
}

/** The instances seen within `withinMs`, most recently seen first. */
export async function recentInstances(withinMs = INSTANCE_RECENT_MS, now = new Date()): Promise<InstanceRow[]> {
  const rows = await db
    .selectFrom("instances")
    .selectAll()
    .where("seen_at", ">=", nowIso(new Date(now.getTime() - withinMs)))
    .orderBy("seen_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    host: row.host,
    pid: Number(row.pid),
    version: row.version,
    startedAt: row.started_at,
    seenAt: row.seen_at,
    metricsPort: row.metrics_port === null ? null : Number(row.metrics_port),
  }));
}

/** Removes the rows of instances not seen for `olderThanMs`; how many. */
export async function pruneInstances(olderThanMs = INSTANCE_KEEP_MS, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom("instances")
    .where("seen_at", "<", nowIso(new Date(now.getTime() - olderThanMs)))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
