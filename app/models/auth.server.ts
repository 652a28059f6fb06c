import { beginLoginAttempt, beginRegistration, loginAttemptAbandoned, registrationAbandoned, loginAttemptSucceeded } from "./login-attempt.server";
import { decoyPasswordHash, PasswordHashingBusy, verifyPassword } from "./password.server";
import type { User } from "./user.server";
import { createUser, getUserWithPasswordByEmail } from "./user.server";

export type PasswordLoginResult =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number }
  | { ok: false; reason: "busy"; retryAfterSeconds: number };

/**
 * Checks an email and password, counting failures per account and per client address: a locked account
 * or an address over its budget is refused (429) before any hash; below both, a correct password gets
 * in (see login-attempt.server). When the server's hash queue is full the password is not checked and
 * the attempt is not counted ("busy": 503 with Retry-After, see password.server).
 */
export async function loginWithPassword(email: string, password: string, clientAddress: string): Promise<PasswordLoginResult> {
  // Recorded before the (slow) check, so concurrent guesses count against each other (see login-attempt.server).
  const attempt = await beginLoginAttempt(email, clientAddress);
  if (!attempt.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: attempt.retryAfterSeconds };

  let user: Awaited<ReturnType<typeof getUserWithPasswordByEmail>>;
  let valid: boolean;
  try {
    user = await getUserWithPasswordByEmail(email);
    valid = await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), password, attempt.hashPriority);
  } catch (error) {
    if (!(error instanceof PasswordHashingBusy)) throw error;
    await loginAttemptAbandoned(attempt.attemptId);
    return { ok: false, reason: "busy", retryAfterSeconds: error.retryAfterSeconds };
  }
  // A wrong password leaves the attempt recorded: it is the failure. Known and unknown emails answer alike.
  if (!user || !valid) return { ok: false, reason: "invalid" };
  await loginAttemptSucceeded(email, attempt.attemptId);
  return { ok: true, user: { id: user.id, email: user.email } };
}

export function throttledMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export type RegistrationResult =
  | { ok: true; user: User }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number }
  | { ok: false; reason: "busy"; retryAfterSeconds: number };

/**
 * Creates an account unless the client address has registered too often lately (429) or the server's
 * hash queue is full (503, the registration is then not counted); EmailTakenError as createUser.
 */
export async function registerWithPassword(email: string, password: string, clientAddress: string): Promise<RegistrationResult> {
  const allowance = await beginRegistration(clientAddress);
  if (!allowance.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: allowance.retryAfterSeconds };
  try {
    return { ok: true, user: await createUser(email, password) };
  } catch (error) {
    if (!(error instanceof PasswordHashingBusy)) throw error;
    if (allowance.registrationId) await registrationAbandoned(allowance.registrationId);
    return { ok: false, reason: "busy", retryAfterSeconds: error.retryAfterSeconds };
  }
}

/** What the screens show when the hash queue is full (the API answers the same as its detail). */
export function busyMessage(retryAfterSeconds: number) {
  return new PasswordHashingBusy(retryAfterSeconds).detail;
}

export function registrationThrottledMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many registrations from your address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
