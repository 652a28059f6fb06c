import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { nowIso } from "~/lib/ids.server";

/** Failed logins are counted per account and per client address within a sliding window. */
export interface LoginThrottle {
  blocked: boolean;
  retryAfterSeconds: number;
}

function windowStart(now: Date) {
  return new Date(now.getTime() - env.loginFailureWindowMinutes * 60_000);
}

export async function checkLoginThrottle(email: string, clientAddress: string, now = new Date()): Promise<LoginThrottle> {
  const since = nowIso(windowStart(now));
  const [byAccount, byAddress] = await Promise.all([
    db
      .selectFrom("login_attempts")
      .select([(eb) => eb.fn.countAll<number>().as("failures"), (eb) => eb.fn.min("attempted_at").as("oldest")])
      .where("email", "=", email)
      .where("attempted_at", ">", since)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("login_attempts")
      .select([(eb) => eb.fn.countAll<number>().as("failures"), (eb) => eb.fn.min("attempted_at").as("oldest")])
      .where("client_address", "=", clientAddress)
      .where("attempted_at", ">", since)
      .executeTakeFirstOrThrow(),
  ]);
  const windowMs = env.loginFailureWindowMinutes * 60_000;
  const retryAfter = (oldest: string | null) =>
    oldest ? Math.max(1, Math.ceil((new Date(oldest).getTime() + windowMs - now.getTime()) / 1000)) : 1;
  if (Number(byAccount.failures) >= env.loginMaxFailuresPerAccount) {
    return { blocked: true, retryAfterSeconds: retryAfter(byAccount.oldest) };
  }
  if (Number(byAddress.failures) >= env.loginMaxFailuresPerAddress) {
    return { blocked: true, retryAfterSeconds: retryAfter(byAddress.oldest) };
  }
  return { blocked: false, retryAfterSeconds: 0 };
}

export async function recordFailedLogin(email: string, clientAddress: string, now = new Date()) {
  await db.insertInto("login_attempts").values({ email, client_address: clientAddress, attempted_at: nowIso(now) }).execute();
  // Keep the table small: rows older than the window no longer count for anything.
  await db.deleteFrom("login_attempts").where("attempted_at", "<=", nowIso(windowStart(now))).execute();
}

/** A successful login clears that account's failures (not the address's: one address may try many accounts). */
export async function clearFailedLogins(email: string) {
  await db.deleteFrom("login_attempts").where("email", "=", email).execute();
}
