import { z } from "zod";
import { forUpdate } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { interpolate, msg } from "~/common/i18n/translate";
import { nowIso } from "~/lib/db/ids.server";
import { mediaUrl } from "~/models/media/ai-media.server";
import { UNFINISHED_STATUSES, VIDEO_JOB_NOT_FOUND, type VideoStatus } from "./video-job.server";

/**
 * What a person does with their own video jobs (docs/decisions/0075): see them with their place in
 * line, cancel one, reorder the waiting ones. A job waits while no runner has taken it (status
 * starting or queued, no runner); the runner's side of a cancel is the heartbeat
 * (app/models/video-jobs/video-job-queue.server.ts). Another person's job is indistinguishable from none (404).
 */
export const WAITING_STATUSES: VideoStatus[] = ["starting", "queued"];
/** Ended jobs a person may start again with the same prompt. */
export const RETRYABLE_STATUSES: VideoStatus[] = ["error", "timeout", "cancelled"];
export const VIDEO_JOB_LIST_MAX = 50;

/** Refusals a screen shows (the AI video screen's job list says them in the person's language). */
const VIDEO_JOB_ENDED = msg(
  "This video job has already ended ({{status}}); only a queued or processing job can be cancelled.",
);
const ONLY_FAILED_RETRIED = msg("Only a failed, timed-out or cancelled video job can be retried.");
const ONLY_WAITING_MOVED = msg("Only a job that is still waiting in the queue can be moved.");

/** One job in the person's list (docs/api.md#video-jobs-a-person-controls). */
export interface VideoJobListItem {
  id: string;
  status: VideoStatus;
  progress: number;
  /** 1 for the person's next job to be claimed; null unless it waits. */
  position: number | null;
  prompt: string;
  url: string | null;
  media_id: string | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

export const moveVideoJobSchema = z.object({
  before: z.string({ error: "before must be a job id or null" }).min(1, "before must be a job id or null").nullable(),
});

/** The person's waiting jobs, in the order they will be claimed. */
async function waitingLine(userId: string, database: typeof db = db): Promise<string[]> {
  const rows = await database
    .selectFrom("video_jobs")
    .select("id")
    .where("user_id", "=", userId)
    .where("status", "in", WAITING_STATUSES)
    .where("runner_id", "is", null)
    .orderBy("queue_position", "asc")
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map((row) => row.id);
}

/** The person's most recent jobs, newest first, each waiting one with its place in the person's line. */
export async function listVideoJobsWithPlace(userId: string, limit = VIDEO_JOB_LIST_MAX): Promise<VideoJobListItem[]> {
  const [rows, line] = await Promise.all([
    db
      .selectFrom("video_jobs")
      .select(["id", "status", "progress", "media_id", "prompt", "error", "created_at", "completed_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute(),
    waitingLine(userId),
  ]);
  return rows.map((row) => {
    const place = line.indexOf(row.id);
    const completed = row.status === "completed" && row.media_id !== null;
    return {
      id: row.id,
      status: row.status as VideoStatus,
      progress: Math.max(0, Math.min(1, Number(row.progress))),
      position: place === -1 ? null : place + 1,
      prompt: row.prompt,
      url: completed ? mediaUrl(row.media_id!) : null,
      media_id: completed ? row.media_id : null,
      error: row.error,
      created_at: row.created_at,
      finished_at: row.completed_at,
    };
  });
}

async function ownStatus(userId: string, id: string, database: typeof db = db): Promise<VideoStatus> {
  const row = await database
    .selectFrom("video_jobs")
    .select("status")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw new DomainError(404, VIDEO_JOB_NOT_FOUND);
  return row.status as VideoStatus;
}

/**
 * Cancels the person's queued or processing job: it ends as "cancelled" at once (so it no longer
 * counts toward the active-job limit), and the runner holding it, on whichever instance, stops at its
 * next heartbeat; a clip finished meanwhile is not kept (finishJob only ends an unfinished job).
 * 404 unknown or another person's; 409 when it has already ended.
 */
export async function cancelVideoJob(userId: string, id: string): Promise<void> {
  const now = nowIso();
  const result = await db
    .updateTable("video_jobs")
    .set({ status: "cancelled", runner_id: null, heartbeat_at: null, updated_at: now, completed_at: now })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("status", "in", UNFINISHED_STATUSES)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return;
  const status = await ownStatus(userId, id);
  throw new DomainError(409, interpolate(VIDEO_JOB_ENDED, { status }));
}

/** The prompt of the person's ended-in-failure job, to start again. 404 as above; 409 unless error, timeout or cancelled. */
export async function retryablePrompt(userId: string, id: string): Promise<string> {
  const row = await db
    .selectFrom("video_jobs")
    .select(["status", "prompt"])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw new DomainError(404, VIDEO_JOB_NOT_FOUND);
  if (!RETRYABLE_STATUSES.includes(row.status as VideoStatus)) throw new DomainError(409, ONLY_FAILED_RETRIED);
  return row.prompt;
}

/**
 * Moves the person's waiting job before another of their waiting jobs (`before`), or to the end of
 * their line (null), by renumbering the line. In a transaction holding the person's row (FOR UPDATE on
 * PostgreSQL), so two moves take turns. 404 as above; 409 when the job no longer waits; 400 when
 * `before` is not another of the person's waiting jobs.
 */
export async function moveVideoJob(userId: string, id: string, before: string | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await forUpdate(trx.selectFrom("users").select("id").where("id", "=", userId), trx).executeTakeFirst();
    const line = await waitingLine(userId, trx);
    if (!line.includes(id)) {
      await ownStatus(userId, id, trx);
      throw new DomainError(409, ONLY_WAITING_MOVED);
    }
    if (before === id) throw new DomainError(400, "before must be another of your queued jobs");
    if (before !== null && !line.includes(before))
      throw new DomainError(400, "before must be one of your queued jobs, or null for the end of the queue");
    const order = line.filter((other) => other !== id);
    order.splice(before === null ? order.length : order.indexOf(before), 0, id);
    for (const [index, jobId] of order.entries()) {
      await trx
        .updateTable("video_jobs")
        .set({ queue_position: index + 1 })
        .where("id", "=", jobId)
        .where("user_id", "=", userId)
        .execute();
    }
  });
}
