import { sql, type ExpressionBuilder } from "kysely";
import type { Database } from "~/lib/db/db-schema";
import type { VideoJobsTable } from "~/lib/db/work-tables";
import { engineOf } from "../../../db/portable";
import { forUpdateSkipLocked } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/ids.server";
import { UNFINISHED_STATUSES, type VideoStatus } from "./video-job.server";

/**
 * The job runner's side of AI video jobs (app/services/video-jobs/video-job-runner.server.ts): these functions work
 * on any user's job, but only on a job the calling runner has claimed (or, for the claims, one no live
 * runner works).
 */
export type RunnerJob = Pick<
  VideoJobsTable,
  | "id"
  | "user_id"
  | "prompt"
  | "status"
  | "progress"
  | "provider"
  | "external_id"
  | "attempts"
  | "runner_id"
  | "heartbeat_at"
  | "created_at"
>;
const RUNNER_COLUMNS = [
  "id",
  "user_id",
  "prompt",
  "status",
  "progress",
  "provider",
  "external_id",
  "attempts",
  "runner_id",
  "heartbeat_at",
  "created_at",
] as const;

/** Unfinished jobs no live runner works: never claimed, or their runner's heartbeat is older than `staleBefore`. */
function claimable(eb: ExpressionBuilder<Database, "video_jobs">, staleBefore: string) {
  return eb.and([
    eb("status", "in", UNFINISHED_STATUSES),
    eb.or([eb("runner_id", "is", null), eb("heartbeat_at", "is", null), eb("heartbeat_at", "<", staleBefore)]),
  ]);
}

/**
 * The claimable jobs in the order they are claimed (docs/decisions/0075): jobs a runner had begun
 * first (they resume), then round-robin across people: each person's first waiting job (by their own
 * order, queue_position) before anyone's second, and among the firsts, the person whose last claim is
 * longest ago (never claimed first). The same SQL on SQLite and PostgreSQL (window functions; '' for
 * "never", as the engines sort NULL differently).
 */
function fairOrder(database: typeof db, staleBefore: string, limit: number) {
  return database
    .selectFrom("video_jobs")
    .select(RUNNER_COLUMNS)
    .select(
      sql<number>`row_number() over (partition by video_jobs.user_id order by video_jobs.queue_position, video_jobs.created_at, video_jobs.id)`.as(
        "turn",
      ),
    )
    .select(
      sql<string>`(select coalesce(max(last.claimed_at), '') from video_jobs last where last.user_id = video_jobs.user_id)`.as(
        "last_claim",
      ),
    )
    .where((eb) => claimable(eb, staleBefore))
    .orderBy(sql`case when video_jobs.runner_id is null then 1 else 0 end`)
    .orderBy(sql.ref("turn"))
    .orderBy(sql.ref("last_claim"))
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .limit(limit);
}

const asRunnerJob = ({ turn: _turn, last_claim: _last, ...row }: RunnerJob & { turn: number; last_claim: string }) => ({
  ...row,
  progress: Number(row.progress),
  attempts: Number(row.attempts),
});

/** Unfinished jobs no live runner works, in the order they are to be claimed (fairOrder). */
export async function findClaimableJobs(staleBefore: string, limit: number): Promise<RunnerJob[]> {
  if (limit <= 0) return [];
  return (await fairOrder(db, staleBefore, limit).execute()).map(asRunnerJob);
}

/**
 * Takes the job for `runnerId`, only if nobody took it since it was read (compare-and-set on the
 * attempts, runner and heartbeat seen), so two server instances never work one job; a job whose
 * runner's heartbeat went stale was read with that stale heartbeat and is taken over. Counts the attempt.
 *
 * SQLite: the conditional UPDATE alone (one writer at a time). PostgreSQL: in one transaction, the row
 * is first locked with FOR UPDATE SKIP LOCKED (a row another instance is claiming right now is skipped
 * at once instead of waited for), then the same conditional UPDATE, which re-checks what was read.
 */
export async function claimJob(job: RunnerJob, runnerId: string): Promise<boolean> {
  const now = nowIso();
  const claim = (trx: typeof db) =>
    trx
      .updateTable("video_jobs")
      .set({ runner_id: runnerId, heartbeat_at: now, claimed_at: now, attempts: job.attempts + 1, updated_at: now })
      .where("id", "=", job.id)
      .where("attempts", "=", job.attempts)
      .where("status", "in", UNFINISHED_STATUSES)
      .where((eb) => (job.runner_id === null ? eb("runner_id", "is", null) : eb("runner_id", "=", job.runner_id)))
      .where((eb) =>
        job.heartbeat_at === null ? eb("heartbeat_at", "is", null) : eb("heartbeat_at", "=", job.heartbeat_at),
      )
      .executeTakeFirst();
  if (engineOf(db) !== "postgres") return Number((await claim(db)).numUpdatedRows) === 1;
  return db.transaction().execute(async (trx) => {
    const locked = await forUpdateSkipLocked(
      trx.selectFrom("video_jobs").select("id").where("id", "=", job.id),
      trx,
    ).executeTakeFirst();
    if (!locked) return false;
    return Number((await claim(trx)).numUpdatedRows) === 1;
  });
}

/**
 * Finds and claims up to `limit` claimable jobs for `runnerId` in one step (in fairOrder): what
 * findClaimableJobs + claimJob do job by job, for a runner on several instances. PostgreSQL: one
 * transaction reads the candidates in order, then locks those still claimable FOR UPDATE SKIP LOCKED
 * (rows other instances are claiming are skipped, so concurrent runners take different jobs rather
 * than all racing for the first; a window function cannot share a query with FOR UPDATE) and claims
 * them; SQLite: the same read, then the conditional UPDATE per job. Returns the jobs claimed, as the
 * runner should see them (attempts counted, runner set).
 */
export async function claimJobs(runnerId: string, staleBefore: string, limit: number): Promise<RunnerJob[]> {
  if (limit <= 0) return [];
  const claimed = (row: RunnerJob): RunnerJob => ({ ...row, attempts: row.attempts + 1, runner_id: runnerId });
  if (engineOf(db) !== "postgres") {
    const won: RunnerJob[] = [];
    for (const row of await findClaimableJobs(staleBefore, limit)) {
      if (await claimJob(row, runnerId)) won.push(claimed(row));
    }
    return won;
  }
  return db.transaction().execute(async (trx) => {
    const candidates = (await fairOrder(trx, staleBefore, limit).execute()).map(asRunnerJob);
    if (candidates.length === 0) return [];
    const locked = await forUpdateSkipLocked(
      trx
        .selectFrom("video_jobs")
        .select("id")
        .where(
          "id",
          "in",
          candidates.map((row) => row.id),
        )
        .where((eb) => claimable(eb, staleBefore)),
      trx,
    ).execute();
    const ids = new Set(locked.map((row) => row.id));
    const rows = candidates.filter((row) => ids.has(row.id));
    if (rows.length === 0) return [];
    const now = nowIso();
    await trx
      .updateTable("video_jobs")
      .set((eb) => ({
        runner_id: runnerId,
        heartbeat_at: now,
        claimed_at: now,
        attempts: eb("attempts", "+", 1),
        updated_at: now,
      }))
      .where("id", "in", [...ids])
      .execute();
    return rows.map(claimed);
  });
}

/** Jobs waiting for a free slot say so (docs/screens.md#states-and-transitions "queued"). */
export async function markWaiting(ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("video_jobs")
    .set({ status: "queued", updated_at: nowIso() })
    .where("id", "in", ids)
    .where("status", "=", "starting")
    .execute();
}

/**
 * The runner is alive and still working these jobs. Returns those it no longer holds: cancelled by
 * their owner (docs/decisions/0075), ended by an account's disabling, taken over or deleted; the
 * runner stops working them. This is how a cancel reaches whichever instance works the job.
 */
export async function heartbeat(runnerId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  await db
    .updateTable("video_jobs")
    .set({ heartbeat_at: nowIso() })
    .where("runner_id", "=", runnerId)
    .where("id", "in", ids)
    .where("status", "in", UNFINISHED_STATUSES)
    .execute();
  const held = await db
    .selectFrom("video_jobs")
    .select("id")
    .where("runner_id", "=", runnerId)
    .where("id", "in", ids)
    .where("status", "in", UNFINISHED_STATUSES)
    .execute();
  const still = new Set(held.map((row) => row.id));
  return ids.filter((id) => !still.has(id));
}

/**
 * Records progress of a claimed job; progress never goes back. False when the runner no longer holds
 * the job (taken over, or the job or its owner was deleted): the runner then stops working it.
 */
export async function recordProgress(
  id: string,
  runnerId: string,
  update: { status: VideoStatus; progress: number; externalId?: string },
): Promise<boolean> {
  const now = nowIso();
  const progress = Math.max(0, Math.min(1, update.progress));
  const result = await db
    .updateTable("video_jobs")
    .set((eb) => ({
      status: update.status,
      // CASE rather than max()/greatest(): the same SQL on SQLite and Postgres.
      progress: eb.case().when("progress", ">", progress).then(eb.ref("progress")).else(progress).end(),
      ...(update.externalId !== undefined ? { external_id: update.externalId } : {}),
      heartbeat_at: now,
      updated_at: now,
    }))
    .where("id", "=", id)
    .where("runner_id", "=", runnerId)
    .where("status", "in", UNFINISHED_STATUSES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a claimed job: completed (with its clip), error or timeout (with a reason). */
export async function finishJob(
  id: string,
  runnerId: string | null,
  outcome: { status: "completed"; mediaId: string } | { status: "error" | "timeout"; error: string },
): Promise<boolean> {
  const now = nowIso();
  const result = await db
    .updateTable("video_jobs")
    .set({
      status: outcome.status,
      ...(outcome.status === "completed"
        ? { progress: 1, media_id: outcome.mediaId, error: null }
        : { error: outcome.error }),
      runner_id: null,
      heartbeat_at: null,
      updated_at: now,
      completed_at: now,
    })
    .where("id", "=", id)
    .where((eb) => (runnerId === null ? eb("runner_id", "is", null) : eb("runner_id", "=", runnerId)))
    .where("status", "in", UNFINISHED_STATUSES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
