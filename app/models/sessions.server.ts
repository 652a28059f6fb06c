import type { Kysely } from "kysely";
import { db } from "~/lib/db.server";
import type { Database } from "~/lib/db-schema";
import { deviceLabel } from "~/lib/device-label";
import { nowIso } from "~/lib/ids.server";

/**
 * A person's signed-in sessions (issue 27; docs/decisions/0047). A session is one sign-in: a
 * refresh-token family (app/models/token.server.ts), live while a token of the family is live (not
 * revoked, not expired). The `sessions` row (its id is the family's) only names and dates it: the
 * device it signed in from and when it was last used. Revoking a session revokes its family in
 * refresh_tokens, which every request checks in the database (userOfAccessToken): the session's next
 * request is signed out, on every instance.
 */
export interface SessionView {
  id: string;
  device: string;
  created_at: string;
  last_used_at: string;
}

/** "Last used" moves at most this often per session: one small write a minute, not one per request. */
export const SESSION_TOUCH_MS = 60_000;

/** Records a new sign-in (a new family), with the device read from its User-Agent. */
export async function recordSession(
  database: Kysely<Database>,
  session: { id: string; userId: string; userAgent?: string | null; now: Date },
): Promise<void> {
  const at = nowIso(session.now);
  await database
    .insertInto("sessions")
    .values({ id: session.id, user_id: session.userId, device: deviceLabel(session.userAgent), created_at: at, last_used_at: at })
    .execute();
}

/** When this instance last moved each session's "last used" (a bound on writes, not a cache of anything read). */
const touched = new Map<string, number>();
const TOUCHED_MAX = 10_000;

/**
 * The session was used now: its last_used_at moves if it is more than a minute old. Skipped without a
 * query when this instance moved it within the minute; the update's own condition keeps other
 * instances from writing it more often either.
 */
export async function touchSession(id: string, now = new Date()): Promise<void> {
  const last = touched.get(id);
  if (last !== undefined && now.getTime() - last < SESSION_TOUCH_MS) return;
  touched.delete(id);
  if (touched.size >= TOUCHED_MAX) touched.delete(touched.keys().next().value!);
  touched.set(id, now.getTime());
  await db
    .updateTable("sessions")
    .set({ last_used_at: nowIso(now) })
    .where("id", "=", id)
    .where("last_used_at", "<", nowIso(new Date(now.getTime() - SESSION_TOUCH_MS)))
    .execute();
}

/** The person's live sessions, most recently used first. */
export async function listSessions(userId: string, now = new Date()): Promise<SessionView[]> {
  return db
    .selectFrom("sessions")
    .select(["sessions.id", "sessions.device", "sessions.created_at", "sessions.last_used_at"])
    .where("sessions.user_id", "=", userId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("refresh_tokens")
          .select("refresh_tokens.id")
          .whereRef("refresh_tokens.family_id", "=", "sessions.id")
          .where("refresh_tokens.user_id", "=", userId)
          .where("refresh_tokens.revoked_at", "is", null)
          .where("refresh_tokens.expires_at", ">", nowIso(now)),
      ),
    )
    .orderBy("sessions.last_used_at", "desc")
    .orderBy("sessions.id")
    .execute();
}

/** Revokes the families of `database`'s query for this person: every live token of them. */
function revokeFamilies(database: Kysely<Database>, userId: string, now: Date) {
  return database
    .updateTable("refresh_tokens")
    .set({ revoked_at: nowIso(now), successor_sealed: null })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null);
}

/** Ends one of the person's sessions; false when they have no such live session (another person's id included). */
export async function revokeSession(userId: string, sessionId: string, now = new Date()): Promise<boolean> {
  const result = await revokeFamilies(db, userId, now).where("family_id", "=", sessionId).where("expires_at", ">", nowIso(now)).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Ends every session of the person but `keepSessionId` (the one asking; null ends them all), on
 * `database` (a transaction, e.g. with a password change). Returns how many sessions ended.
 */
export async function revokeOtherSessions(userId: string, keepSessionId: string | null, now = new Date(), database: Kysely<Database> = db): Promise<number> {
  const ending = await database
    .selectFrom("refresh_tokens")
    .select("family_id")
    .distinct()
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .where("family_id", "!=", keepSessionId ?? "")
    .execute();
  if (ending.length === 0) return 0;
  await revokeFamilies(database, userId, now).where("family_id", "!=", keepSessionId ?? "").execute();
  return ending.length;
}

/**
 * A new password hash for the person, and every other session ended, in one transaction: nobody can
 * sign in with the old password or keep a session made with it once the change is seen.
 */
export async function replacePasswordEndingOtherSessions(userId: string, passwordHash: string, keepSessionId: string | null, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", userId).execute();
    return revokeOtherSessions(userId, keepSessionId, now, trx);
  });
}

/** Housekeeping: a session none of whose tokens is left (they expired and were deleted) is gone. */
export async function pruneEndedSessions(): Promise<void> {
  await db
    .deleteFrom("sessions")
    .where((eb) => eb.not(eb.exists(eb.selectFrom("refresh_tokens").select("refresh_tokens.id").whereRef("refresh_tokens.family_id", "=", "sessions.id"))))
    .execute();
}
