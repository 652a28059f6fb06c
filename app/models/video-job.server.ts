import { sql } from "kysely";
import { z } from "zod";
import type { VideoJobsTable } from "~/lib/db-schema";
import { engineOf, forUpdate, forUpdateSkipLocked, withoutNul } from "~/lib/db-dialect.server";
import { db } from "~/lib/db.server";
import { DomainError } from "~/lib/domain-error";
import { newId, nowIso } from "~/lib/ids.server";
import { mediaUrl } from "./ai-media.server";
import { ACCOUNT_DISABLED_MESSAGE } from "./credentials.server";

/**
 * AI video jobs (SPEC §3 Video generation job, §4 statuses). What a person sees is scoped by their
 * id: another user's job is indistinguishable from one that does not exist. The runner's functions
 * (below the line) work on any user's job, but only on a job the calling runner has claimed.
 */
export const VIDEO_STATUSES = ["starting", "queued", "processing", "finishing", "completed", "error", "timeout"] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];
export const UNFINISHED_STATUSES: VideoStatus[] = ["starting", "queued", "processing", "finishing"];
export const FINISHED_STATUSES: VideoStatus[] = ["completed", "error", "timeout"];

export const VIDEO_PROMPT_MAX = 1000;
/** Why a disabled person's unfinished job ended: SPEC §4 has no "cancelled", so it ends in error with this reason. */
export const CANCELLED_ACCOUNT_DISABLED = "Cancelled: the account was disabled.";
export const VIDEO_JOB_NOT_FOUND = "Video job not found";

export const videoPromptSchema = z.object({
  prompt: z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? "prompt is required" : "prompt must be text") })
    // PostgreSQL refuses U+0000 in text: dropped on both engines, so both store the same prompt.
    .overwrite(withoutNul)
    .trim()
    .min(1, "prompt is required")
    .max(VIDEO_PROMPT_MAX, `prompt must be at most ${VIDEO_PROMPT_MAX} characters`),
});

/** What the API answers for a job (SPEC §3: id, status, progress, url). */
export interface VideoJobView {
  id: string;
  status: VideoStatus;
  progress: number;
  /** The finished clip, served to its owner by /media/{id}; null until completed. */
  url: string | null;
  /** The finished clip's file id (a project can attach it); null until completed. */
  media_id: string | null;
  prompt: string;
  error: string | null;
  created_at: string;
  updated_at: string;
}

type ViewRow = Pick<VideoJobsTable, "id" | "status" | "progress" | "media_id" | "prompt" | "error" | "created_at" | "updated_at">;
const VIEW_COLUMNS = ["id", "status", "progress", "media_id", "prompt", "error", "created_at", "updated_at"] as const;

function toView(row: ViewRow): VideoJobView {
  return {
    id: row.id,
    status: row.status as VideoStatus,
    progress: Math.max(0, Math.min(1, Number(row.progress))),
    url: row.status === "completed" && row.media_id ? mediaUrl(row.media_id) : null,
    media_id: row.status === "completed" ? row.media_id : null,
    prompt: row.prompt,
    error: row.error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The code of the refusal below, for a door that must tell it apart from other 429s. */
export const VIDEO_JOB_LIMIT = "video_job_limit";

/** Refused (429, the one place this status is chosen): the person already has as many unfinished jobs as allowed. */
export function videoJobLimitReached(limit: number): DomainError {
  const detail = `You already have ${limit} ${limit === 1 ? "video" : "videos"} being generated. Wait for one to finish, then try again.`;
  return new DomainError(429, detail, { code: VIDEO_JOB_LIMIT });
}

/**
 * A new job for the person. With `maxUnfinished`, the job is only created while the person has fewer
 * unfinished jobs than that; otherwise a 429 DomainError (videoJobLimitReached).
 *
 * Two requests at once must not both slip under the limit. The count and the insert are one
 * statement, inside a transaction that first locks the person's users row: on SQLite the statement is
 * atomic anyway (one writer at a time; the lock is a no-op there), on PostgreSQL each statement counts
 * from its own READ COMMITTED snapshot, which does not see another request's uncommitted insert, so
 * the row lock (FOR UPDATE) makes the person's creates take turns.
 */
export async function createVideoJob(
  userId: string,
  prompt: string,
  provider: string,
  options: { maxUnfinished?: number } = {},
): Promise<VideoJobView> {
  const now = nowIso();
  prompt = withoutNul(prompt);
  const row = {
    id: newId(),
    user_id: userId,
    prompt,
    status: "starting" as const,
    progress: 0,
    provider,
    external_id: null,
    media_id: null,
    error: null,
    attempts: 0,
    runner_id: null,
    heartbeat_at: null,
    created_at: now,
    updated_at: now,
    completed_at: null,
  };
  const { maxUnfinished } = options;
  if (maxUnfinished === undefined) {
    await db.insertInto("video_jobs").values(row).execute();
    return toView(row);
  }
  // INSERT ... SELECT ... WHERE (count) < max. Only the text columns are given (the others take their
  // defaults), cast so that Postgres types the parameters the way SQLite does.
  const given = { id: row.id, user_id: userId, prompt, status: row.status, provider, created_at: now, updated_at: now };
  const columns = Object.keys(given) as (keyof typeof given)[];
  const inserted = await db.transaction().execute(async (trx) => {
    const owner = await forUpdate(trx.selectFrom("users").select(["id", "disabled_at"]).where("id", "=", userId), trx).executeTakeFirst();
    // Disabled after this request was let in: `disable` holds the same row lock while it cancels the
    // person's jobs, so a job is either seen and cancelled by it, or refused here.
    if (owner?.disabled_at) throw new DomainError(403, ACCOUNT_DISABLED_MESSAGE);
    const result = await trx
      .insertInto("video_jobs")
      .columns(columns)
      .expression(
        trx
          .selectNoFrom(columns.map((column) => sql<string>`cast(${given[column]} as text)`.as(column)))
          .where(
            (eb) =>
              eb
                .selectFrom("video_jobs")
                .select((inner) => inner.fn.countAll<number>().as("unfinished"))
                .where("user_id", "=", userId)
                .where("status", "in", UNFINISHED_STATUSES),
            "<",
            maxUnfinished,
          ),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  });
  if (inserted !== 1) throw videoJobLimitReached(maxUnfinished);
  return toView(row);
}

export async function getVideoJob(userId: string, id: string): Promise<VideoJobView | undefined> {
  const row = await db.selectFrom("video_jobs").select(VIEW_COLUMNS).where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  return row ? toView(row) : undefined;
}

/** The person's most recent jobs, newest first. */
export async function listVideoJobs(userId: string, limit = 10): Promise<VideoJobView[]> {
  const rows = await db
    .selectFrom("video_jobs")
    .select(VIEW_COLUMNS)
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(toView);
}

// ---- The job runner's side -------------------------------------------------------------------

export type RunnerJob = Pick<
  VideoJobsTable,
  "id" | "user_id" | "prompt" | "status" | "progress" | "provider" | "external_id" | "attempts" | "runner_id" | "heartbeat_at" | "created_at"
>;
const RUNNER_COLUMNS = ["id", "user_id", "prompt", "status", "progress", "provider", "external_id", "attempts", "runner_id", "heartbeat_at", "created_at"] as const;

/** Unfinished jobs no live runner works: never claimed, or their runner's heartbeat is older than `staleBefore`. Oldest first. */
export async function findClaimableJobs(staleBefore: string, limit: number): Promise<RunnerJob[]> {
  if (limit <= 0) return [];
  const rows = await db
    .selectFrom("video_jobs")
    .select(RUNNER_COLUMNS)
    .where("status", "in", UNFINISHED_STATUSES)
    .where((eb) => eb.or([eb("runner_id", "is", null), eb("heartbeat_at", "is", null), eb("heartbeat_at", "<", staleBefore)]))
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, progress: Number(row.progress) }));
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
      .set({ runner_id: runnerId, heartbeat_at: now, attempts: job.attempts + 1, updated_at: now })
      .where("id", "=", job.id)
      .where("attempts", "=", job.attempts)
      .where("status", "in", UNFINISHED_STATUSES)
      .where((eb) => (job.runner_id === null ? eb("runner_id", "is", null) : eb("runner_id", "=", job.runner_id)))
      .where((eb) => (job.heartbeat_at === null ? eb("heartbeat_at", "is", null) : eb("heartbeat_at", "=", job.heartbeat_at)))
      .executeTakeFirst();
  if (engineOf(db) !== "postgres") return Number((await claim(db)).numUpdatedRows) === 1;
  return db.transaction().execute(async (trx) => {
    const locked = await forUpdateSkipLocked(trx.selectFrom("video_jobs").select("id").where("id", "=", job.id), trx).executeTakeFirst();
    if (!locked) return false;
    return Number((await claim(trx)).numUpdatedRows) === 1;
  });
}

/**
 * Finds and claims up to `limit` claimable jobs for `runnerId` in one step (oldest first): what
 * findClaimableJobs + claimJob do job by job, for a runner on several instances. PostgreSQL: one
 * transaction selects the claimable rows FOR UPDATE SKIP LOCKED (rows other instances are claiming are
 * skipped, so concurrent runners take different jobs rather than all racing for the oldest) and
 * claims them; SQLite: the same select, then the conditional UPDATE per job. Returns the jobs claimed,
 * as the runner should see them (attempts counted, runner set).
 */
export async function claimJobs(runnerId: string, staleBefore: string, limit: number): Promise<RunnerJob[]> {
  if (limit <= 0) return [];
  const claimable = (trx: typeof db) =>
    trx
      .selectFrom("video_jobs")
      .select(RUNNER_COLUMNS)
      .where("status", "in", UNFINISHED_STATUSES)
      .where((eb) => eb.or([eb("runner_id", "is", null), eb("heartbeat_at", "is", null), eb("heartbeat_at", "<", staleBefore)]))
      .orderBy("created_at", "asc")
      .orderBy("id", "asc")
      .limit(limit);
  const claimed = (row: RunnerJob): RunnerJob => ({ ...row, progress: Number(row.progress), attempts: row.attempts + 1, runner_id: runnerId });
  if (engineOf(db) !== "postgres") {
    const won: RunnerJob[] = [];
    for (const row of await claimable(db).execute()) {
      if (await claimJob(row, runnerId)) won.push(claimed(row));
    }
    return won;
  }
  return db.transaction().execute(async (trx) => {
    const rows = await forUpdateSkipLocked(claimable(trx), trx).execute();
    if (rows.length === 0) return [];
    const now = nowIso();
    await trx
      .updateTable("video_jobs")
      .set((eb) => ({ runner_id: runnerId, heartbeat_at: now, attempts: eb("attempts", "+", 1), updated_at: now }))
      .where("id", "in", rows.map((row) => row.id))
      .execute();
    return rows.map(claimed);
  });
}

/** Jobs waiting for a free slot say so (SPEC §4 "queued"). */
export async function markWaiting(ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("video_jobs")
    .set({ status: "queued", updated_at: nowIso() })
    .where("id", "in", ids)
    .where("status", "=", "starting")
    .execute();
}

/** The runner is alive and still working these jobs. */
export async function heartbeat(runnerId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("video_jobs").set({ heartbeat_at: nowIso() }).where("runner_id", "=", runnerId).where("id", "in", ids).execute();
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
      ...(outcome.status === "completed" ? { progress: 1, media_id: outcome.mediaId, error: null } : { error: outcome.error }),
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

/**
 * Ends every unfinished job of the person in error with `reason` (`npm run admin -- disable`), on
 * `database` (the disable's transaction). Whichever instance works one stops at its next progress
 * report (recordProgress only moves an unfinished job, so the runner's claim is lost), and a clip
 * finished meanwhile is discarded (finishJob only ends an unfinished job; the runner then deletes it).
 * Returns how many were cancelled.
 */
export async function cancelUnfinishedJobs(userId: string, reason: string, database: typeof db = db, now = new Date()): Promise<number> {
  const at = nowIso(now);
  const result = await database
    .updateTable("video_jobs")
    .set({ status: "error", error: reason, runner_id: null, heartbeat_at: null, updated_at: at, completed_at: at })
    .where("user_id", "=", userId)
    .where("status", "in", UNFINISHED_STATUSES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
