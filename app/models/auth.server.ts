import { checkLoginThrottle, clearFailedLogins, recordFailedLogin } from "./login-attempt.server";
import { decoyPasswordHash, verifyPassword } from "./password.server";
import type { User } from "./user.server";
import { getUserWithPasswordByEmail } from "./user.server";

export type PasswordLoginResult =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/** Checks an email and password, counting failures per account and per client address. */
export async function loginWithPassword(email: string, password: string, clientAddress: string): Promise<PasswordLoginResult> {
  const throttle = await checkLoginThrottle(email, clientAddress);
  if (throttle.blocked) return { ok: false, reason: "throttled", retryAfterSeconds: throttle.retryAfterSeconds };

  const user = await getUserWithPasswordByEmail(email);
  const valid = await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), password);
  if (!user || !valid) {
    await recordFailedLogin(email, clientAddress);
    return { ok: false, reason: "invalid" };
  }
  await clearFailedLogins(email);
  return { ok: true, user: { id: user.id, email: user.email } };
}

export function throttledMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
