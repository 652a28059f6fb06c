import type { Kysely } from "kysely";
import { db } from "~/lib/db/db.server";
import { engineOf } from "../../../db/portable";
import { forUpdate } from "~/lib/db/portable-sql.server";
import type { Database } from "~/lib/db/db-schema";
import { deviceLabel } from "~/lib/device-label";
import { nowIso } from "~/lib/db/ids.server";

/**
 * A person's signed-in sessions (docs/decisions/0047). A session is one sign-in: a
 * refresh-token family (app/models/accounts/token-pair.server.ts), live while its `sessions` row (its id is the
 * family's) is not revoked and a token of the family is live (not revoked, not expired). The row names
 * and dates it (the device it signed in from, when it was last used) and is what ends it: every revoke
 * sets its revoked_at while holding the row, which a rotation holds too before it makes a successor
 * token (docs/decisions/0050), so no rotation slips past a revoke on either engine. Every request
 * checks it in the database (userOfAccessToken): the session's next request is signed out, on every
 * instance.
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
    .values({
      id: session.id,
      user_id: session.userId,
      device: deviceLabel(session.userAgent),
      created_at: at,
      last_used_at: at,
    })
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
    .where("sessions.revoked_at", "is", null)
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

/** Runs `work` in `database` if it is a transaction already (a password change), else in a new one. */
function inTransaction<T>(database: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return database.isTransaction ? work(database) : database.transaction().execute(work);
}

/**
 * Takes the live session's row for the rest of the transaction, as a refresh-token rotation does before
 * it makes the successor token; false when the session is revoked (or unknown, or another person's).
 * A conditional UPDATE that changes nothing, because it is the portable lock: PostgreSQL holds the row
 * until commit (a revoke holding it first is waited for, and its revoked_at then seen), and on SQLite
 * it takes the write lock at once (a revoke is then either wholly before or wholly after).
 */
export async function holdLiveSession(trx: Kysely<Database>, sessionId: string, userId: string): Promise<boolean> {
  const held = await trx
    .updateTable("sessions")
    .set({ revoked_at: null })
    .where("id", "=", sessionId)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(held.numUpdatedRows) === 1;
}

type Ending = { only: string } | { allBut: string | null };

/**
 * Ends the person's sessions `which` names, in `trx`: each session's row gets revoked_at (waiting for a
 * rotation that holds it, which then has made its successor, or which finds the session revoked and
 * makes none), then every token of those families is revoked. Returns how many of them were live (a
 * token neither revoked nor expired).
 */
async function endSessions(trx: Kysely<Database>, userId: string, which: Ending, now: Date): Promise<number> {
  const at = nowIso(now);
  const only = "only" in which ? which.only : null;
  const allBut = "only" in which ? null : (which.allBut ?? "");
  if (allBut !== null && engineOf(trx) === "postgres") {
    // Several rows: taken in one order, so that two revokes of the same person's sessions never deadlock.
    await forUpdate(
      trx
        .selectFrom("sessions")
        .select("id")
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("id", "!=", allBut)
        .orderBy("id"),
      trx,
    ).execute();
  }
  const ended = await trx
    .updateTable("sessions")
    .set({ revoked_at: at })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .$if(only !== null, (query) => query.where("id", "=", only!))
    .$if(allBut !== null, (query) => query.where("id", "!=", allBut!))
    .returning("id")
    .execute();
  if (ended.length === 0) return 0;
  const endedIds = new Set(ended.map((row) => row.id));
  const live = await trx
    .selectFrom("refresh_tokens")
    .select("family_id")
    .distinct()
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", at)
    .$if(only !== null, (query) => query.where("family_id", "=", only!))
    .$if(allBut !== null, (query) => query.where("family_id", "!=", allBut!))
    .execute();
  await trx
    .updateTable("refresh_tokens")
    .set({ revoked_at: at, successor_sealed: null })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .$if(only !== null, (query) => query.where("family_id", "=", only!))
    .$if(allBut !== null, (query) => query.where("family_id", "!=", allBut!))
    .execute();
  return live.filter((row) => endedIds.has(row.family_id)).length;
}

/** Ends one of the person's sessions; false when they have no such live session (another person's id included). */
export async function revokeSession(userId: string, sessionId: string, now = new Date()): Promise<boolean> {
  return (await db.transaction().execute((trx) => endSessions(trx, userId, { only: sessionId }, now))) > 0;
}

/**
 * Ends a refresh-token family's session, whoever's it is (logout by refresh token, reuse detection), or
 * only if it is `userId`'s when given (logout by access token).
 */
export async function endSessionOfFamily(familyId: string, now = new Date(), userId?: string): Promise<void> {
  // A session's person never changes: looked up before the transaction, whose first statement is then a
  // write (SQLite takes its write lock at once).
  const owner =
    userId ??
    (await db.selectFrom("sessions").select("user_id").where("id", "=", familyId).executeTakeFirst())?.user_id;
  await db.transaction().execute(async (trx) => {
    if (owner !== undefined) await endSessions(trx, owner, { only: familyId }, now);
    // A family without a session row (none is left after db/migrations/0018) still loses its tokens.
    await trx
      .updateTable("refresh_tokens")
      .set({ revoked_at: nowIso(now), successor_sealed: null })
      .where("family_id", "=", familyId)
      .$if(userId !== undefined, (query) => query.where("user_id", "=", userId!))
      .where("revoked_at", "is", null)
      .execute();
  });
}

/**
 * Ends every session of the person but `keepSessionId` (the one asking; null ends them all), on
 * `database` (or in the transaction it is, e.g. with a password change). Returns how many sessions ended.
 */
export async function revokeOtherSessions(
  userId: string,
  keepSessionId: string | null,
  now = new Date(),
  database: Kysely<Database> = db,
): Promise<number> {
  return inTransaction(database, (trx) => endSessions(trx, userId, { allBut: keepSessionId }, now));
}

/**
 * A new password hash for the person, and every other session ended, in one transaction: nobody can
 * sign in with the old password or keep a session made with it once the change is seen.
 */
export async function replacePasswordEndingOtherSessions(
  userId: string,
  passwordHash: string,
  keepSessionId: string | null,
  now = new Date(),
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", userId).execute();
    return revokeOtherSessions(userId, keepSessionId, now, trx);
  });
}

/** Housekeeping: a session none of whose tokens is left (they expired and were deleted) is gone. */
export async function pruneEndedSessions(): Promise<void> {
  await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("refresh_tokens")
            .select("refresh_tokens.id")
            .whereRef("refresh_tokens.family_id", "=", "sessions.id"),
        ),
      ),
    )
    .execute();
}
