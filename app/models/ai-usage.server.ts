import { lockKey } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { env } from "~/lib/settings/env.server";
import { newId, nowIso } from "~/lib/db/ids.server";

/**
 * Per-person AI limits (docs/decisions/0038), shared by every AI call (assistant, speech,
 * sketch, image, video) on every instance: each request is a row of ai_requests (db/migrations/0013).
 *
 * - Per minute (AI_REQUESTS_PER_MINUTE): requests started in the last 60 seconds, a sliding window.
 * - Per day (decision 0046): requests started since midnight UTC, against the person's own cap
 *   (users.ai_daily_limit, `npm run admin -- ai-limit`) or AI_DAILY_LIMIT (0: none).
 * - At once (AI_CONCURRENT_PER_PERSON): requests whose heartbeat is fresh. The instance working a
 *   request beats it (heartbeatAiRequests) and clears the heartbeat when the request ends
 *   (finishAiRequest); an instance that was killed stops beating, and its requests stop holding a
 *   slot AI_SLOT_STALE_MS later, so nobody is blocked for good.
 *
 * A request is recorded BEFORE it is checked and counted including itself, inside a transaction that
 * holds the person's lock (PostgreSQL's advisory lock, SQLite's one writer), so racing requests take
 * turns and never both pass a count taken before either was recorded (as login attempts do). A refused
 * request is removed: it neither counts nor extends the wait. The rows stay a day (pruneAiRequests), so
 * "requests today" is one count on the person's index.
 */
export type AiRequestKind = "chat" | "speech" | "sketch" | "image" | "video";

export interface AiLimits {
  perMinute: number;
  concurrent: number;
  /** Requests per UTC day when the person has no cap of their own (AI_DAILY_LIMIT); 0: none. */
  perDay?: number;
}

export type AiRequestStart =
  | { allowed: true; id: string }
  | { allowed: false; reason: "per_minute" | "per_day" | "concurrent"; limit: number; retryAfterSeconds: number };

/** A running request's heartbeat older than this no longer holds a slot (its instance stopped). */
export const AI_SLOT_STALE_MS = 60_000;
/** How often a running request's heartbeat moves (a quarter of the staleness: three beats may be late). */
export const AI_SLOT_HEARTBEAT_MS = 15_000;
/** The per-minute window. */
export const AI_RATE_WINDOW_MS = 60_000;
/** Over the concurrency limit the wait is not known (a running request ends when it ends): this is the hint. */
export const AI_CONCURRENT_RETRY_SECONDS = 5;
/** How long rows are kept: "requests today" counts from midnight UTC, never more than a day back. */
export const AI_REQUESTS_KEPT_MS = 24 * 60 * 60_000;

export const aiLimitsFromSettings = (): AiLimits => ({
  perMinute: env.aiRequestsPerMinute,
  concurrent: env.aiConcurrentPerPerson,
  perDay: env.aiDailyLimit,
});

/** Midnight UTC of `now`'s day: "today" of the daily cap and of `npm run admin -- users`. */
export const startOfUtcDay = (now = new Date()) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** Records the person's request; refused (and not recorded) when it would be over either limit. */
export async function beginAiRequest(
  userId: string,
  kind: AiRequestKind,
  limits: AiLimits = aiLimitsFromSettings(),
  now = new Date(),
): Promise<AiRequestStart> {
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, "ai_requests", userId);
    const id = newId();
    const at = nowIso(now);
    await trx
      .insertInto("ai_requests")
      .values({ id, user_id: userId, kind, started_at: at, heartbeat_at: at, finished_at: null })
      .execute();
    const minute = await trx
      .selectFrom("ai_requests")
      .select([(eb) => eb.fn.countAll<number>().as("requests"), (eb) => eb.fn.min("started_at").as("oldest")])
      .where("user_id", "=", userId)
      .where("started_at", ">", nowIso(new Date(now.getTime() - AI_RATE_WINDOW_MS)))
      .executeTakeFirstOrThrow();
    // Counts include this request: the 20th in the minute goes ahead, the 21st does not.
    if (Number(minute.requests) > limits.perMinute) {
      await trx.deleteFrom("ai_requests").where("id", "=", id).execute();
      const oldest = minute.oldest ? new Date(minute.oldest as string).getTime() : now.getTime();
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + AI_RATE_WINDOW_MS - now.getTime()) / 1000));
      return { allowed: false, reason: "per_minute", limit: limits.perMinute, retryAfterSeconds } as const;
    }
    // The daily cap (decision 0046): the person's own (`npm run admin -- ai-limit`) or AI_DAILY_LIMIT; 0: none.
    const own = await trx.selectFrom("users").select("ai_daily_limit").where("id", "=", userId).executeTakeFirst();
    const perDay = own?.ai_daily_limit ?? limits.perDay ?? 0;
    if (perDay > 0) {
      const midnight = startOfUtcDay(now);
      const today = await trx
        .selectFrom("ai_requests")
        .select((eb) => eb.fn.countAll<number>().as("requests"))
        .where("user_id", "=", userId)
        .where("started_at", ">=", nowIso(midnight))
        .executeTakeFirstOrThrow();
      if (Number(today.requests) > perDay) {
        await trx.deleteFrom("ai_requests").where("id", "=", id).execute();
        const retryAfterSeconds = Math.max(1, Math.ceil((midnight.getTime() + 86_400_000 - now.getTime()) / 1000));
        return { allowed: false, reason: "per_day", limit: perDay, retryAfterSeconds } as const;
      }
    }
    const running = await trx
      .selectFrom("ai_requests")
      .select((eb) => eb.fn.countAll<number>().as("requests"))
      .where("user_id", "=", userId)
      .where("heartbeat_at", ">", nowIso(new Date(now.getTime() - AI_SLOT_STALE_MS)))
      .executeTakeFirstOrThrow();
    if (Number(running.requests) > limits.concurrent) {
      await trx.deleteFrom("ai_requests").where("id", "=", id).execute();
      return {
        allowed: false,
        reason: "concurrent",
        limit: limits.concurrent,
        retryAfterSeconds: AI_CONCURRENT_RETRY_SECONDS,
      } as const;
    }
    return { allowed: true, id } as const;
  });
}

/** The running requests are still being worked: their slots stay held. */
export async function heartbeatAiRequests(userId: string, ids: string[], now = new Date()): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("ai_requests")
    .set({ heartbeat_at: nowIso(now) })
    .where("user_id", "=", userId)
    .where("id", "in", ids)
    .where("finished_at", "is", null)
    .execute();
}

/** The request ended (answered, failed or abandoned): its slot is free; it still counts in the minute and the day. */
export async function finishAiRequest(userId: string, id: string, now = new Date()): Promise<void> {
  await db
    .updateTable("ai_requests")
    .set({ heartbeat_at: null, finished_at: nowIso(now) })
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .execute();
}

/**
 * The request was refused by its own service before any provider was asked (a video create over
 * VIDEO_MAX_ACTIVE_JOBS): its row goes, so it counts in neither the minute nor the day, as a request
 * these limits refused.
 */
export async function forgetAiRequest(userId: string, id: string): Promise<void> {
  await db.deleteFrom("ai_requests").where("user_id", "=", userId).where("id", "=", id).execute();
}

/** The person's daily cap on AI requests: their own (`npm run admin -- ai-limit`) or AI_DAILY_LIMIT; null: none. */
export async function dailyAiLimitOf(
  userId: string,
  limits: AiLimits = aiLimitsFromSettings(),
): Promise<number | null> {
  const own = await db.selectFrom("users").select("ai_daily_limit").where("id", "=", userId).executeTakeFirst();
  const perDay = own?.ai_daily_limit ?? limits.perDay ?? 0;
  return perDay > 0 ? perDay : null;
}

/** How many AI requests the person started since `since` (e.g. midnight UTC: "AI requests today"). */
export async function countAiRequestsSince(userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom("ai_requests")
    .select((eb) => eb.fn.countAll<number>().as("requests"))
    .where("user_id", "=", userId)
    .where("started_at", ">=", nowIso(since))
    .executeTakeFirstOrThrow();
  return Number(row.requests);
}

/** Housekeeping: rows older than a day count for nothing. */
export async function pruneAiRequests(now = new Date()): Promise<void> {
  await db
    .deleteFrom("ai_requests")
    .where("started_at", "<", nowIso(new Date(now.getTime() - AI_REQUESTS_KEPT_MS)))
    .execute();
}
