import { beginLoginAttempt, beginRegistration, loginAttemptSucceeded } from "./login-attempt.server";
import { decoyPasswordHash, verifyPassword } from "./password.server";
import type { User } from "./user.server";
import { createUser, getUserWithPasswordByEmail } from "./user.server";

export type PasswordLoginResult =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/**
 * Checks an email and password, counting failures per account and per client address: a locked account
 * is refused before the check; an address over its budget gets 429 for a failure, while a correct
 * password for an account that is not locked still gets in (see login-attempt.server).
 */
export async function loginWithPassword(email: string, password: string, clientAddress: string): Promise<PasswordLoginResult> {
  // Recorded before the (slow) check, so concurrent guesses count against each other (see login-attempt.server).
  const attempt = await beginLoginAttempt(email, clientAddress);
  if (!attempt.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: attempt.retryAfterSeconds };

  const user = await getUserWithPasswordByEmail(email);
  const valid = await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), password);
  // A wrong password leaves the attempt recorded: it is the failure. Known and unknown emails answer alike.
  if (!user || !valid) {
    if (attempt.addressRetryAfterSeconds !== null) {
      return { ok: false, reason: "throttled", retryAfterSeconds: attempt.addressRetryAfterSeconds };
    }
    return { ok: false, reason: "invalid" };
  }
  await loginAttemptSucceeded(email, attempt.attemptId);
  return { ok: true, user: { id: user.id, email: user.email } };
}

export function throttledMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export type RegistrationResult = { ok: true; user: User } | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/** Creates an account unless the client address has registered too often lately; EmailTakenError as createUser. */
export async function registerWithPassword(email: string, password: string, clientAddress: string): Promise<RegistrationResult> {
  const allowance = await beginRegistration(clientAddress);
  if (!allowance.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: allowance.retryAfterSeconds };
  return { ok: true, user: await createUser(email, password) };
}

export function registrationThrottledMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many registrations from your address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
