import type { Kysely } from "kysely";
import { lockKey, withoutNul } from "~/lib/db-dialect.server";
import type { Database } from "~/lib/db-schema";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { newId, nowIso } from "~/lib/ids.server";

/**
 * Failed logins are counted per account and per client address within a sliding window.
 *
 * - Per account (LOGIN_MAX_FAILURES_PER_ACCOUNT, NIST 800-63B): once an account has that many failures
 *   in the window, every attempt on it is refused before the password is checked, the right one too.
 * - Per address (LOGIN_MAX_FAILURES_PER_ADDRESS): once an address has that many failures in the window,
 *   across any emails (known or not), every attempt from it that FAILS answers 429 instead of 401; a
 *   correct password for an account that is not itself locked still gets in. Behind NAT or a proxy one
 *   person's guesses must not lock everyone else out, so the address budget only throttles what would
 *   fail; guessing per account stays bounded by the account cap.
 *
 * An attempt is recorded BEFORE the password is checked and counted including itself, so concurrent
 * attempts cannot all pass a count taken before any of them was recorded (check-then-act race). The row
 * stays when the password is wrong (it is the failure), and is removed when the login succeeds or is
 * refused. Overlapping attempts see each other, so a burst may be refused a little early, never late.
 * Per account the attempts take turns (a transaction with a lock on the email, see beginLoginAttempt), so
 * the same rule holds on SQLite and PostgreSQL.
 */
export type LoginAttemptStart =
  | {
      allowed: true;
      attemptId: number;
      /** Set when the address is over its budget: a failure of this attempt answers 429 after this many seconds. */
      addressRetryAfterSeconds: number | null;
    }
  | { allowed: false; retryAfterSeconds: number };

const windowMs = () => env.loginFailureWindowMinutes * 60_000;
const windowStart = (now: Date) => new Date(now.getTime() - windowMs());

function retryAfter(oldest: string | null, now: Date) {
  return oldest ? Math.max(1, Math.ceil((new Date(oldest).getTime() + windowMs() - now.getTime()) / 1000)) : 1;
}

async function countSince(database: Kysely<Database>, column: "email" | "client_address", value: string, since: string) {
  const row = await database
    .selectFrom("login_attempts")
    .select([(eb) => eb.fn.countAll<number>().as("attempts"), (eb) => eb.fn.min("attempted_at").as("oldest")])
    .where(column, "=", value)
    .where("attempted_at", ">", since)
    .executeTakeFirstOrThrow();
  return { attempts: Number(row.attempts), oldest: row.oldest as string | null };
}

/**
 * Records a login attempt; refused when it would be more than the account's allowance. When it would
 * be more than the address's allowance it goes ahead, marked: only its failure is throttled.
 */
export async function beginLoginAttempt(email: string, clientAddress: string, now = new Date()): Promise<LoginAttemptStart> {
  // The login form only trims the email: U+0000 (which PostgreSQL refuses in text) is dropped, so the
  // attempt still counts, against the account it names without it (no account has a NUL in its email).
  email = withoutNul(email);
  // One account's attempts take turns (insert, count, maybe delete) in a transaction holding a lock on
  // the email: on PostgreSQL an advisory lock, on SQLite the transaction itself. Without it, a burst of
  // concurrent attempts on PostgreSQL could all count each other, all be refused and all delete their
  // rows, leaving the account with fewer recorded failures than the cap (unlocked) after the burst.
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, "login_attempts", email);
    const { id } = await trx
      .insertInto("login_attempts")
      .values({ email, client_address: clientAddress, attempted_at: nowIso(now) })
      .returning("id")
      .executeTakeFirstOrThrow();
    const since = nowIso(windowStart(now));
    const byAccount = await countSince(trx, "email", email, since);
    const byAddress = await countSince(trx, "client_address", clientAddress, since);
    // Counts include this attempt: the 10th failure in the window is still checked, the 11th is not.
    if (byAccount.attempts > env.loginMaxFailuresPerAccount) {
      // A refused attempt checked nothing, so it is not a failure (and does not extend the block).
      await trx.deleteFrom("login_attempts").where("id", "=", id).execute();
      return { allowed: false, retryAfterSeconds: retryAfter(byAccount.oldest, now) } as const;
    }
    const addressOver = byAddress.attempts > env.loginMaxFailuresPerAddress;
    return { allowed: true, attemptId: id, addressRetryAfterSeconds: addressOver ? retryAfter(byAddress.oldest, now) : null } as const;
  });
}

/**
 * The password was right: this attempt and the account's earlier failures stop counting (the address's
 * failures on other accounts stay: one address may try many accounts). Attempts recorded after this
 * one are still in flight and keep counting.
 */
export async function loginAttemptSucceeded(email: string, attemptId: number) {
  email = withoutNul(email);
  await db.deleteFrom("login_attempts").where("email", "=", email).where("id", "<=", attemptId).execute();
}

/**
 * Read-only view of the allowance (nothing recorded), e.g. for tests and diagnostics: `blocked` when the
 * account is locked (even the right password is refused); `failuresThrottled` when the address is over its
 * budget (a wrong password answers 429, the right one still gets in).
 */
export async function checkLoginThrottle(email: string, clientAddress: string, now = new Date()) {
  email = withoutNul(email);
  const since = nowIso(windowStart(now));
  const [byAccount, byAddress] = await Promise.all([
    countSince(db, "email", email, since),
    countSince(db, "client_address", clientAddress, since),
  ]);
  const failuresThrottled = byAddress.attempts >= env.loginMaxFailuresPerAddress;
  if (byAccount.attempts >= env.loginMaxFailuresPerAccount) {
    return { blocked: true, failuresThrottled, retryAfterSeconds: retryAfter(byAccount.oldest, now) };
  }
  return { blocked: false, failuresThrottled, retryAfterSeconds: failuresThrottled ? retryAfter(byAddress.oldest, now) : 0 };
}

/** Housekeeping: rows older than the window no longer count for anything. */
export async function pruneLoginAttempts(now = new Date()) {
  await db.deleteFrom("login_attempts").where("attempted_at", "<=", nowIso(windowStart(now))).execute();
}

/** Registrations (each runs a costly password hash) are limited per client address per hour. */
export const REGISTRATION_WINDOW_MINUTES = 60;
const registrationWindowStart = (now: Date) => new Date(now.getTime() - REGISTRATION_WINDOW_MINUTES * 60_000);

/**
 * A loopback address is this machine itself (local scripts, the test suites); behind a reverse proxy
 * TRUST_PROXY must be set anyway (README), or every visitor would share the proxy's one address.
 */
export function isLoopbackAddress(address: string) {
  return /^(127\.|::ffff:127\.)/.test(address) || address === "::1";
}

/** Records a registration as the login attempts do (insert, then count including it); refused over the allowance. */
export async function beginRegistration(
  clientAddress: string,
  now = new Date(),
): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  if (isLoopbackAddress(clientAddress)) return { allowed: true };
  // One address's registrations take turns, as one account's login attempts do (beginLoginAttempt).
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, "registration_attempts", clientAddress);
    const id = newId();
    await trx.insertInto("registration_attempts").values({ id, client_address: clientAddress, attempted_at: nowIso(now) }).execute();
    const row = await trx
      .selectFrom("registration_attempts")
      .select([(eb) => eb.fn.countAll<number>().as("attempts"), (eb) => eb.fn.min("attempted_at").as("oldest")])
      .where("client_address", "=", clientAddress)
      .where("attempted_at", ">", nowIso(registrationWindowStart(now)))
      .executeTakeFirstOrThrow();
    if (Number(row.attempts) <= env.registerMaxPerAddress) return { allowed: true } as const;
    await trx.deleteFrom("registration_attempts").where("id", "=", id).execute();
    const oldest = row.oldest ? new Date(row.oldest as string).getTime() : now.getTime();
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((oldest + REGISTRATION_WINDOW_MINUTES * 60_000 - now.getTime()) / 1000)),
    } as const;
  });
}

export async function pruneRegistrationAttempts(now = new Date()) {
  await db.deleteFrom("registration_attempts").where("attempted_at", "<=", nowIso(registrationWindowStart(now))).execute();
}
