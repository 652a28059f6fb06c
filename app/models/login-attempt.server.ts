import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { newId, nowIso } from "~/lib/ids.server";

/**
 * Failed logins are counted per account and per client address within a sliding window.
 *
 * An attempt is recorded BEFORE the password is checked and counted including itself, so concurrent
 * attempts cannot all pass a count taken before any of them was recorded (check-then-act race). The row
 * stays when the password is wrong (it is the failure), and is removed when the login succeeds or is
 * refused. Overlapping attempts see each other, so a burst may be refused a little early, never late.
 * Plain insert/count/delete statements: the same rule holds on SQLite and Postgres.
 */
export type LoginAttemptStart = { allowed: true; attemptId: number } | { allowed: false; retryAfterSeconds: number };

const windowMs = () => env.loginFailureWindowMinutes * 60_000;
const windowStart = (now: Date) => new Date(now.getTime() - windowMs());

function retryAfter(oldest: string | null, now: Date) {
  return oldest ? Math.max(1, Math.ceil((new Date(oldest).getTime() + windowMs() - now.getTime()) / 1000)) : 1;
}

async function countSince(column: "email" | "client_address", value: string, since: string) {
  const row = await db
    .selectFrom("login_attempts")
    .select([(eb) => eb.fn.countAll<number>().as("attempts"), (eb) => eb.fn.min("attempted_at").as("oldest")])
    .where(column, "=", value)
    .where("attempted_at", ">", since)
    .executeTakeFirstOrThrow();
  return { attempts: Number(row.attempts), oldest: row.oldest as string | null };
}

/** Records a login attempt; refused when it would be more than the account's or the address's allowance. */
export async function beginLoginAttempt(email: string, clientAddress: string, now = new Date()): Promise<LoginAttemptStart> {
  const { id } = await db
    .insertInto("login_attempts")
    .values({ email, client_address: clientAddress, attempted_at: nowIso(now) })
    .returning("id")
    .executeTakeFirstOrThrow();
  const since = nowIso(windowStart(now));
  const [byAccount, byAddress] = await Promise.all([
    countSince("email", email, since),
    countSince("client_address", clientAddress, since),
  ]);
  // Counts include this attempt: the 10th failure in the window is still checked, the 11th is not.
  const over =
    byAccount.attempts > env.loginMaxFailuresPerAccount ? byAccount : byAddress.attempts > env.loginMaxFailuresPerAddress ? byAddress : null;
  if (!over) return { allowed: true, attemptId: id };
  // A refused attempt checked nothing, so it is not a failure (and does not extend the block).
  await db.deleteFrom("login_attempts").where("id", "=", id).execute();
  return { allowed: false, retryAfterSeconds: retryAfter(over.oldest, now) };
}

/**
 * The password was right: this attempt and the account's earlier failures stop counting (the address's
 * failures on other accounts stay: one address may try many accounts). Attempts recorded after this
 * one are still in flight and keep counting.
 */
export async function loginAttemptSucceeded(email: string, attemptId: number) {
  await db.deleteFrom("login_attempts").where("email", "=", email).where("id", "<=", attemptId).execute();
}

/** Read-only view of the allowance (nothing recorded), e.g. for tests and diagnostics. */
export async function checkLoginThrottle(email: string, clientAddress: string, now = new Date()) {
  const since = nowIso(windowStart(now));
  const [byAccount, byAddress] = await Promise.all([
    countSince("email", email, since),
    countSince("client_address", clientAddress, since),
  ]);
  if (byAccount.attempts >= env.loginMaxFailuresPerAccount) return { blocked: true, retryAfterSeconds: retryAfter(byAccount.oldest, now) };
  if (byAddress.attempts >= env.loginMaxFailuresPerAddress) return { blocked: true, retryAfterSeconds: retryAfter(byAddress.oldest, now) };
  return { blocked: false, retryAfterSeconds: 0 };
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
  const id = newId();
  await db.insertInto("registration_attempts").values({ id, client_address: clientAddress, attempted_at: nowIso(now) }).execute();
  const row = await db
    .selectFrom("registration_attempts")
    .select([(eb) => eb.fn.countAll<number>().as("attempts"), (eb) => eb.fn.min("attempted_at").as("oldest")])
    .where("client_address", "=", clientAddress)
    .where("attempted_at", ">", nowIso(registrationWindowStart(now)))
    .executeTakeFirstOrThrow();
  if (Number(row.attempts) <= env.registerMaxPerAddress) return { allowed: true };
  await db.deleteFrom("registration_attempts").where("id", "=", id).execute();
  const oldest = row.oldest ? new Date(row.oldest as string).getTime() : now.getTime();
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + REGISTRATION_WINDOW_MINUTES * 60_000 - now.getTime()) / 1000)) };
}

export async function pruneRegistrationAttempts(now = new Date()) {
  await db.deleteFrom("registration_attempts").where("attempted_at", "<=", nowIso(registrationWindowStart(now))).execute();
}
