import { db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/ids.server";
import { startOfUtcDay } from "~/models/ai-usage.server";
import { revokeAllApiTokens } from "~/models/accounts/api-token.server";
import { revokeOtherSessions } from "~/models/accounts/sessions.server";
import { CANCELLED_ACCOUNT_DISABLED, cancelUnfinishedJobs } from "~/models/video-jobs/video-job.server";

/**
 * What `npm run admin` reads and changes about people (docs/decisions/0046), on whichever
 * database the settings name, while the server runs: every change is one statement (or one
 * transaction) that the server's per-request reads see at once, on every instance.
 */
export interface PersonRow {
  id: string;
  email: string;
  createdAt: string;
  lastSeenAt: string | null;
  disabledAt: string | null;
  usedBytes: number;
  /** Their own quota (`admin quota`), or null: USER_STORAGE_QUOTA_MB. */
  ownQuotaBytes: number | null;
  aiRequestsToday: number;
  /** Their own daily cap (`admin ai-limit`), or null: AI_DAILY_LIMIT. */
  ownAiDailyLimit: number | null;
}

/** Everyone, oldest account first, with what the `users` table shows. */
export async function listPeople(now = new Date()): Promise<PersonRow[]> {
  const rows = await db
    .selectFrom("users")
    .select((eb) => [
      "id",
      "email",
      "created_at",
      "last_seen_at",
      "disabled_at",
      "media_bytes",
      "text_bytes",
      "storage_quota_bytes",
      "ai_daily_limit",
      eb
        .selectFrom("ai_requests")
        .select((inner) => inner.fn.countAll<number | string>().as("today"))
        .whereRef("ai_requests.user_id", "=", "users.id")
        .where("ai_requests.started_at", ">=", nowIso(startOfUtcDay(now)))
        .as("today"),
    ])
    .orderBy("created_at")
    .orderBy("email")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at ?? null,
    disabledAt: row.disabled_at ?? null,
    usedBytes: Number(row.media_bytes) + Number(row.text_bytes),
    ownQuotaBytes: row.storage_quota_bytes == null ? null : Number(row.storage_quota_bytes),
    aiRequestsToday: Number(row.today ?? 0),
    ownAiDailyLimit: row.ai_daily_limit ?? null,
  }));
}

/** The account with this email (compared as stored: lower-cased), or undefined. */
export async function findPersonByEmail(email: string): Promise<{ id: string; email: string } | undefined> {
  const normalised = email.trim().toLowerCase();
  if (!normalised || normalised.includes("\u0000")) return undefined;
  return db.selectFrom("users").select(["id", "email"]).where("email", "=", normalised).executeTakeFirst();
}

/** What `disable` ended. */
export interface DisableOutcome {
  sessions: number;
  tokens: number;
  videoJobs: number;
}

/**
 * Disables the person (docs/decisions/0051): login is refused; their personal API tokens are revoked
 * (deleted: `enable` brings none back) and their unfinished video jobs cancelled, in the transaction
 * that sets disabled_at (its row lock makes a racing job creation wait and then see it), and every
 * session is revoked there too (their access tokens already stop, the family check reads disabled_at). Their
 * signed file links stop too: the link's owner is checked when it is used. So do their share links: opening
 * one checks disabled_at (docs/decisions/0069), so they are not revoked here and work again after `enable`.
 */
export async function disablePerson(userId: string, now = new Date()): Promise<DisableOutcome> {
  const { sessions, tokens, videoJobs } = await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ disabled_at: nowIso(now) })
      .where("id", "=", userId)
      .execute();
    const tokens = await revokeAllApiTokens(userId, trx);
    const videoJobs = await cancelUnfinishedJobs(userId, CANCELLED_ACCOUNT_DISABLED, trx, now);
    // In the same transaction: a rotation racing the disable waits on the family's row lock (0050).
    const sessions = await revokeOtherSessions(userId, null, now, trx);
    return { sessions, tokens, videoJobs };
  });
  return { sessions, tokens, videoJobs };
}

/** Lets the person log in again; nothing `disable` ended comes back (tokens, sessions, jobs). */
export async function enablePerson(userId: string): Promise<void> {
  await db.updateTable("users").set({ disabled_at: null }).where("id", "=", userId).execute();
}

/** The person's own storage quota in bytes; null: back to USER_STORAGE_QUOTA_MB. */
export async function setStorageQuota(userId: string, bytes: number | null): Promise<void> {
  await db.updateTable("users").set({ storage_quota_bytes: bytes }).where("id", "=", userId).execute();
}

/** The person's own daily cap on AI requests (0: none); null: back to AI_DAILY_LIMIT. */
export async function setAiDailyLimit(userId: string, perDay: number | null): Promise<void> {
  await db.updateTable("users").set({ ai_daily_limit: perDay }).where("id", "=", userId).execute();
}

/** What deleting the person removes: their rows are counted for the confirmation. */
export async function personFootprint(userId: string): Promise<{ items: number; files: number; projects: number }> {
  const count = async (table: "content_items" | "media_files" | "projects") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("user_id", "=", userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const [items, files, projects] = await Promise.all([count("content_items"), count("media_files"), count("projects")]);
  return { items, files, projects };
}

/**
 * Deletes the person's rows in one transaction: everything that names them (their account, and by the
 * schema's cascades their sessions, content, files' rows, projects, video jobs, reservations and AI
 * requests; their feedback and the login attempts under their email too). Returns the storage keys of
 * their files, for the caller to remove from the file store after the rows are gone (a key left behind
 * by a failure is unclaimed and the store's sweep removes it).
 */
export async function deletePersonRows(userId: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const person = await trx.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
    if (!person) return [];
    const keys = (await trx.selectFrom("media_files").select("id").where("user_id", "=", userId).execute()).map(
      (row) => row.id,
    );
    await trx.deleteFrom("feedback").where("user_id", "=", userId).execute();
    await trx.deleteFrom("login_attempts").where("email", "=", person.email).execute();
    await trx.updateTable("invitations").set({ used_by: null }).where("used_by", "=", userId).execute();
    for (const table of [
      "api_tokens",
      "sessions",
      "refresh_tokens",
      "ai_requests",
      "storage_reservations",
      "video_jobs",
      "projects",
      "assistant_messages",
      "assistant_conversations",
      "shares",
      "content_versions",
      "content_items",
      "media_files",
    ] as const) {
      await trx.deleteFrom(table).where("user_id", "=", userId).execute();
    }
    await trx.deleteFrom("users").where("id", "=", userId).execute();
    return keys;
  });
}
