import type { Kysely } from "kysely";
import { lockKey, withoutNul } from "~/lib/db/portable-sql.server";
import type { Database } from "~/lib/db/db-schema";
import { db } from "~/lib/db/db.server";
import { env } from "~/lib/settings/env.server";
import { newId, nowIso } from "~/lib/db/ids.server";
import type { HashPriority } from "./password.server";

/**
 * Failed logins are counted per account and per client address within a sliding window
 * (LOGIN_FAILURE_WINDOW_MINUTES, default 15), and both budgets are spent BEFORE any password is hashed:
 *
 * - Per account (LOGIN_MAX_FAILURES_PER_ACCOUNT, default 10, NIST 800-63B): once an account has that many
 *   failures in the window, every attempt on it is refused (429) before the password is checked, the
 *   right one too.
 * - Per address (LOGIN_MAX_FAILURES_PER_ADDRESS, default 100): once an address has that many failures in
 *   the window, across any emails (known or not), every attempt from it is refused (429) before the
 *   password is checked, the right one too. So a flood from one address costs one indexed count per
 *   request, never an argon2 hash (tens of milliseconds of a core each). The budget is generous on
 *   purpose: an office or a mobile carrier puts many people behind one address, and a hundred typos in
 *   a quarter of an hour is far more than such a crowd makes, while one guesser is stopped at a hundred.
 *   Loopback (this machine: local scripts, the test suites) is not counted, as for registrations; behind
 *   a proxy TRUST_PROXY must be set (docs/operating.md#several-instances-behind-a-proxy).
 * - Below both budgets, a correct password always gets in: nothing else refuses it, except the bounded
 *   hash queue when the whole server is flooded (503 with Retry-After, app/models/accounts/password.server.ts),
 *   in which an address with no other attempt in the window goes first (`hashPriority`).
 *
 * An attempt is recorded BEFORE the password is checked and counted including itself, so concurrent
 * attempts cannot all pass a count taken before any of them was recorded (check-then-act race). The row
 * stays when the password is wrong (it is the failure), and is removed when the login succeeds, is
 * refused, or could not be checked (hash queue full). Overlapping attempts see each other, so a burst
 * may be refused a little early, never late. The attempts on one account, and those from one address,
 * take turns (a transaction with locks on the email and then the address, see beginLoginAttempt), so
 * the same rule holds on SQLite and PostgreSQL.
 */
export type LoginAttemptStart =
  | {
      allowed: true;
      attemptId: number;
      /** `first` when the address has no other attempt in the window (or is loopback): its hash goes ahead in a full queue. */
      hashPriority: HashPriority;
    }
  | { allowed: false; retryAfterSeconds: number; refusedBy: "account" | "address" };

const windowMs = () => env.loginFailureWindowMinutes * 60_000;
const windowStart = (now: Date) => new Date(now.getTime() - windowMs());

function retryAfter(oldest: string | null, now: Date) {
  return oldest ? Math.max(1, Math.ceil((new Date(oldest).getTime() + windowMs() - now.getTime()) / 1000)) : 1;
}

async function countSince(
  database: Kysely<Database>,
  column: "email" | "client_address",
  value: string,
  since: string,
) {
  const row = await database
    .selectFrom("login_attempts")
    .select([(eb) => eb.fn.countAll<number>().as("attempts"), (eb) => eb.fn.min("attempted_at").as("oldest")])
    .where(column, "=", value)
    .where("attempted_at", ">", since)
    .executeTakeFirstOrThrow();
  return { attempts: Number(row.attempts), oldest: row.oldest as string | null };
}

/**
 * Records a login attempt; refused (nothing recorded, nothing to hash) when it would be more than the
 * account's or the address's allowance.
 */
export async function beginLoginAttempt(
  email: string,
  clientAddress: string,
  now = new Date(),
): Promise<LoginAttemptStart> {
  // The login form only trims the email: U+0000 (which PostgreSQL refuses in text) is dropped, so the
  // attempt still counts, against the account it names without it (no account has a NUL in its email).
  email = withoutNul(email);
  const addressCounted = !isLoopbackAddress(clientAddress);
  // One account's attempts take turns (insert, count, maybe delete) in a transaction holding a lock on
  // the email, and one address's attempts a lock on the address (always taken second, so two attempts
  // never wait on each other in a circle): on PostgreSQL advisory locks, on SQLite the transaction
  // itself. Without them, a burst of concurrent attempts on PostgreSQL could all count each other, all
  // be refused and all delete their rows (the account left with fewer recorded failures than the cap),
  // or all miss each other and all pass the address's budget.
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, "login_attempts", email);
    if (addressCounted) await lockKey(trx, "login_attempts_address", clientAddress);
    const { id } = await trx
      .insertInto("login_attempts")
      .values({ email, client_address: clientAddress, attempted_at: nowIso(now) })
      .returning("id")
      .executeTakeFirstOrThrow();
    const since = nowIso(windowStart(now));
    const byAccount = await countSince(trx, "email", email, since);
    const byAddress = await countSince(trx, "client_address", clientAddress, since);
    // Counts include this attempt: the 10th failure in the window is still checked, the 11th is not.
    const refusal = (retryAfterSeconds: number, refusedBy: "account" | "address") =>
      ({ allowed: false, retryAfterSeconds, refusedBy }) as const;
    let refused: ReturnType<typeof refusal> | null = null;
    if (byAccount.attempts > env.loginMaxFailuresPerAccount)
      refused = refusal(retryAfter(byAccount.oldest, now), "account");
    else if (addressCounted && byAddress.attempts > env.loginMaxFailuresPerAddress)
      refused = refusal(retryAfter(byAddress.oldest, now), "address");
    if (refused) {
      // A refused attempt checked nothing, so it is not a failure (and does not extend the block).
      await trx.deleteFrom("login_attempts").where("id", "=", id).execute();
      return refused;
    }
    const hashPriority: HashPriority = !addressCounted || byAddress.attempts === 1 ? "first" : "later";
    return { allowed: true, attemptId: id, hashPriority } as const;
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

/** The password could not be checked (the hash queue was full): the attempt is no failure. */
export async function loginAttemptAbandoned(attemptId: number) {
  await db.deleteFrom("login_attempts").where("id", "=", attemptId).execute();
}

/**
 * Read-only view of the allowance (nothing recorded), e.g. for tests and diagnostics: `blocked` when the
 * next attempt would be refused before its password is checked (the account is locked, or the address
 * is over its budget), with the seconds until it would not be.
 */
export async function checkLoginThrottle(email: string, clientAddress: string, now = new Date()) {
  email = withoutNul(email);
  const since = nowIso(windowStart(now));
  const [byAccount, byAddress] = await Promise.all([
    countSince(db, "email", email, since),
    countSince(db, "client_address", clientAddress, since),
  ]);
  if (byAccount.attempts >= env.loginMaxFailuresPerAccount) {
    return { blocked: true, retryAfterSeconds: retryAfter(byAccount.oldest, now) };
  }
  if (!isLoopbackAddress(clientAddress) && byAddress.attempts >= env.loginMaxFailuresPerAddress) {
    return { blocked: true, retryAfterSeconds: retryAfter(byAddress.oldest, now) };
  }
  return { blocked: false, retryAfterSeconds: 0 };
}

/** Housekeeping: rows older than the window no longer count for anything. */
export async function pruneLoginAttempts(now = new Date()) {
  await db
    .deleteFrom("login_attempts")
    .where("attempted_at", "<=", nowIso(windowStart(now)))
    .execute();
}

/** Registrations (each runs a costly password hash) are limited per client address per hour. */
export const REGISTRATION_WINDOW_MINUTES = 60;
const registrationWindowStart = (now: Date) => new Date(now.getTime() - REGISTRATION_WINDOW_MINUTES * 60_000);

/**
 * A loopback address is this machine itself (local scripts, the test suites); behind a reverse proxy
 * TRUST_PROXY must be set anyway (docs/operating.md#several-instances-behind-a-proxy), or every visitor would share the proxy's one address.
 */
export function isLoopbackAddress(address: string) {
  return /^(127\.|::ffff:127\.)/.test(address) || address === "::1";
}

/** Records a registration as the login attempts do (insert, then count including it); refused over the allowance. */
export async function beginRegistration(
  clientAddress: string,
  now = new Date(),
): Promise<{ allowed: true; registrationId: string | null } | { allowed: false; retryAfterSeconds: number }> {
  if (isLoopbackAddress(clientAddress)) return { allowed: true, registrationId: null };
  // One address's registrations take turns, as one account's login attempts do (beginLoginAttempt).
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, "registration_attempts", clientAddress);
    const id = newId();
    await trx
      .insertInto("registration_attempts")
      .values({ id, client_address: clientAddress, attempted_at: nowIso(now) })
      .execute();
    const row = await trx
      .selectFrom("registration_attempts")
      .select([(eb) => eb.fn.countAll<number>().as("attempts"), (eb) => eb.fn.min("attempted_at").as("oldest")])
      .where("client_address", "=", clientAddress)
      .where("attempted_at", ">", nowIso(registrationWindowStart(now)))
      .executeTakeFirstOrThrow();
    if (Number(row.attempts) <= env.registerMaxPerAddress) return { allowed: true, registrationId: id } as const;
    await trx.deleteFrom("registration_attempts").where("id", "=", id).execute();
    const oldest = row.oldest ? new Date(row.oldest as string).getTime() : now.getTime();
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((oldest + REGISTRATION_WINDOW_MINUTES * 60_000 - now.getTime()) / 1000)),
    } as const;
  });
}

/** The registration could not hash its password (the queue was full): it does not count. */
export async function registrationAbandoned(registrationId: string) {
  await db.deleteFrom("registration_attempts").where("id", "=", registrationId).execute();
}

export async function pruneRegistrationAttempts(now = new Date()) {
  await db
    .deleteFrom("registration_attempts")
    .where("attempted_at", "<=", nowIso(registrationWindowStart(now)))
    .execute();
}
