import { sql } from "kysely";
import { z } from "zod";
import type { VideoJobsTable } from "~/lib/db/work-tables";
import { forUpdate, withoutNul } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { newId, nowIso } from "~/lib/db/ids.server";
import { mediaUrl } from "~/models/media/ai-media.server";
import { ACCOUNT_DISABLED_MESSAGE } from "~/models/accounts/credentials.server";
import { interpolate, msg } from "~/common/i18n/translate";

/**
 * AI video jobs (docs/api.md#entities-and-payloads and docs/screens.md#states-and-transitions statuses). What a person sees is scoped by their
 * id: another user's job is indistinguishable from one that does not exist. The runner's side (claims,
 * progress, the end) is app/models/video-jobs/video-job-queue.server.ts.
 */
export const VIDEO_STATUSES = [
  "starting",
  "queued",
  "processing",
  "finishing",
  "completed",
  "error",
  "timeout",
  "cancelled",
] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];
export const UNFINISHED_STATUSES: VideoStatus[] = ["starting", "queued", "processing", "finishing"];
export const FINISHED_STATUSES: VideoStatus[] = ["completed", "error", "timeout", "cancelled"];

export const VIDEO_PROMPT_MAX = 1000;
/** Why a disabled person's unfinished job ended: in error with this reason ("cancelled" is the owner's own cancel, docs/decisions/0075). */
export const CANCELLED_ACCOUNT_DISABLED = "Cancelled: the account was disabled.";
export const VIDEO_JOB_NOT_FOUND = msg("Video job not found");

export const videoPromptSchema = z.object({
  prompt: z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? "prompt is required" : "prompt must be text",
    })
    // PostgreSQL refuses U+0000 in text: dropped on both engines, so both store the same prompt.
    .overwrite(withoutNul)
    .trim()
    .min(1, "prompt is required")
    .max(VIDEO_PROMPT_MAX, `prompt must be at most ${VIDEO_PROMPT_MAX} characters`),
});

/** What the API answers for a job (docs/api.md#entities-and-payloads: id, status, progress, url). */
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

type ViewRow = Pick<
  VideoJobsTable,
  "id" | "status" | "progress" | "media_id" | "prompt" | "error" | "created_at" | "updated_at"
>;
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

/**
 * The refusal's text, counted (the screens say it in the person's language: app/browser/video-status.ts
 * videoRefusalText); the API's `detail` is the English, with English's one form for a limit of 1.
 */
export const VIDEO_JOB_LIMIT_TEXT = msg(
  "You already have {{count}} videos being generated. Wait for one to finish, then try again.",
);
const VIDEO_JOB_LIMIT_TEXT_ONE =
  "You already have {{count}} video being generated. Wait for one to finish, then try again.";

/** Refused (429, the one place this status is chosen): the person already has as many unfinished jobs as allowed. */
export function videoJobLimitReached(limit: number): DomainError {
  const detail = interpolate(limit === 1 ? VIDEO_JOB_LIMIT_TEXT_ONE : VIDEO_JOB_LIMIT_TEXT, { count: limit });
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
  // Last in the person's own line (docs/decisions/0075); a move renumbers the waiting ones.
  const lastInLine = sql<number>`(select coalesce(max(line.queue_position), 0) + 1 from video_jobs line where line.user_id = ${userId})`;
  if (maxUnfinished === undefined) {
    await db
      .insertInto("video_jobs")
      .values({ ...row, queue_position: lastInLine })
      .execute();
    return toView(row);
  }
  // INSERT ... SELECT ... WHERE (count) < max. Only the text columns are given (the others take their
  // defaults), cast so that Postgres types the parameters the way SQLite does.
  const given = { id: row.id, user_id: userId, prompt, status: row.status, provider, created_at: now, updated_at: now };
  const columns = Object.keys(given) as (keyof typeof given)[];
  const inserted = await db.transaction().execute(async (trx) => {
    const owner = await forUpdate(
      trx.selectFrom("users").select(["id", "disabled_at"]).where("id", "=", userId),
      trx,
    ).executeTakeFirst();
    // Disabled after this request was let in: `disable` holds the same row lock while it cancels the
    // person's jobs, so a job is either seen and cancelled by it, or refused here.
    if (owner?.disabled_at) throw new DomainError(403, ACCOUNT_DISABLED_MESSAGE);
    const result = await trx
      .insertInto("video_jobs")
      .columns([...columns, "queue_position"])
      .expression(
        trx
          .selectNoFrom([
            ...columns.map((column) => sql<string>`cast(${given[column]} as text)`.as(column)),
            lastInLine.as("queue_position"),
          ])
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
  const row = await db
    .selectFrom("video_jobs")
    .select(VIEW_COLUMNS)
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
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

/**
 * Ends every unfinished job of the person in error with `reason` (`npm run admin -- disable`), on
 * `database` (the disable's transaction). Whichever instance works one stops at its next progress
 * report (recordProgress only moves an unfinished job, so the runner's claim is lost), and a clip
 * finished meanwhile is discarded (finishJob only ends an unfinished job; the runner then deletes it).
 * Returns how many were cancelled.
 */
export async function cancelUnfinishedJobs(
  userId: string,
  reason: string,
  database: typeof db = db,
  now = new Date(),
): Promise<number> {
  const at = nowIso(now);
  const result = await database
    .updateTable("video_jobs")
    .set({ status: "error", error: reason, runner_id: null, heartbeat_at: null, updated_at: at, completed_at: at })
    .where("user_id", "=", userId)
    .where("status", "in", UNFINISHED_STATUSES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
