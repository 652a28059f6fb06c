import { db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/ids.server";
import { UNFINISHED_STATUSES } from "~/models/video-jobs/video-job.server";

/**
 * What the studio holds as a whole, counted in the database every instance shares: for `npm run admin
 * -- status` and the metrics' video gauges (so the same answer on every instance: aggregate with max).
 * Each is one or two statements, the same SQL on SQLite and PostgreSQL.
 */

/** The video queue now. */
export interface VideoJobCounts {
  /** Unfinished jobs by status, every one of UNFINISHED_STATUSES named (0 when none). */
  byStatus: Record<string, number>;
  /** Unfinished jobs no runner has taken yet. */
  queueDepth: number;
  /** How long the oldest of them has waited; 0 with none waiting. */
  oldestWaitingSeconds: number;
}

export async function videoJobCounts(now = new Date()): Promise<VideoJobCounts> {
  const [byStatus, waiting] = await Promise.all([
    db
      .selectFrom("video_jobs")
      .select((eb) => ["status", eb.fn.countAll<number | string>().as("count")])
      .where("status", "in", UNFINISHED_STATUSES)
      .groupBy("status")
      .execute(),
    db
      .selectFrom("video_jobs")
      .select((eb) => [eb.fn.countAll<number | string>().as("count"), eb.fn.min("created_at").as("oldest")])
      .where("status", "in", UNFINISHED_STATUSES)
      .where("runner_id", "is", null)
      .executeTakeFirstOrThrow(),
  ]);
  const counts: Record<string, number> = Object.fromEntries(UNFINISHED_STATUSES.map((status) => [status, 0]));
  for (const row of byStatus) counts[row.status] = Number(row.count);
  const oldest = waiting.oldest ? Date.parse(waiting.oldest) : NaN;
  return {
    byStatus: counts,
    queueDepth: Number(waiting.count),
    oldestWaitingSeconds: Number.isNaN(oldest) ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
  };
}

/** Sessions not ended and used within `days` (REFRESH_TOKEN_DAYS: older ones cannot be refreshed), and their people. */
export async function activeSessionCount(
  days: number,
  now = new Date(),
): Promise<{ sessions: number; people: number }> {
  const row = await db
    .selectFrom("sessions")
    .select((eb) => [
      eb.fn.countAll<number | string>().as("sessions"),
      eb.fn.count<number | string>("user_id").distinct().as("people"),
    ])
    .where("revoked_at", "is", null)
    .where("last_used_at", ">=", nowIso(new Date(now.getTime() - days * 24 * 60 * 60_000)))
    .executeTakeFirstOrThrow();
  return { sessions: Number(row.sessions), people: Number(row.people) };
}

/** What everyone stores: their files' bytes, their texts' bytes, and how many people there are. */
export async function storageTotals(): Promise<{ mediaBytes: number; textBytes: number; people: number }> {
  const row = await db
    .selectFrom("users")
    .select((eb) => [
      eb.fn.sum<number | string | null>("media_bytes").as("media"),
      eb.fn.sum<number | string | null>("text_bytes").as("text"),
      eb.fn.countAll<number | string>().as("people"),
    ])
    .executeTakeFirstOrThrow();
  return { mediaBytes: Number(row.media ?? 0), textBytes: Number(row.text ?? 0), people: Number(row.people) };
}

/** Share links that open now: not revoked, not expired, views left. */
export async function liveShareCount(now = new Date()): Promise<number> {
  const row = await db
    .selectFrom("shares")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", nowIso(now))]))
    .where((eb) => eb.or([eb("max_views", "is", null), eb("views", "<", eb.ref("max_views"))]))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
