import {
  beginLoginAttempt,
  beginRegistration,
  isLoopbackAddress,
  loginAttemptAbandoned,
  registrationAbandoned,
  loginAttemptSucceeded,
} from "./login-attempt.server";
import {
  decoyPasswordHash,
  hashQueueRefusal,
  PasswordHashingBusy,
  verifyPassword,
  type HashPriority,
} from "./password.server";
import { env } from "~/lib/settings/env.server";
import type { RegistrationMode } from "~/lib/settings/server-variables";
import { invitationIsUsable } from "./invitation.server";
import type { User } from "./user.server";
import { createUser, getUserWithPasswordByEmail, InvitationNeededError } from "./user.server";
import { msg } from "~/common/i18n/translate";

export type PasswordLoginResult =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "disabled" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number }
  | { ok: false; reason: "busy"; retryAfterSeconds: number };

/** Addresses this instance saw a login attempt from, with when (most recent last), at most RECENT_MAX. */
const recentLoginAddresses = new Map<string, number>();
const RECENT_MAX = 50_000;
const RECENT_MS = 15 * 60_000;

/**
 * Whether this instance saw a login attempt from the address in the last 15 minutes; notes this one.
 * Only a hint for the hash queue's order (the database's counts decide refusals, on every instance): an
 * address whose attempts were all answered 503 left no row behind, and would otherwise stay a newcomer.
 * Loopback (this machine) always counts as a newcomer.
 */
function sawLoginAttemptFrom(clientAddress: string, now = Date.now()): boolean {
  if (isLoopbackAddress(clientAddress)) return false;
  const last = recentLoginAddresses.get(clientAddress);
  recentLoginAddresses.delete(clientAddress);
  recentLoginAddresses.set(clientAddress, now);
  if (recentLoginAddresses.size > RECENT_MAX)
    recentLoginAddresses.delete(recentLoginAddresses.keys().next().value as string);
  return last !== undefined && now - last < RECENT_MS;
}

/**
 * Checks an email and password, counting failures per account and per client address: a locked account
 * or an address over its budget is refused (429) before any hash; below both, a correct password gets
 * in (see login-attempt.server). When the server's hash queue is full the password is not checked and
 * the attempt is not counted ("busy": 503 with Retry-After, see password.server).
 */
export async function loginWithPassword(
  email: string,
  password: string,
  clientAddress: string,
): Promise<PasswordLoginResult> {
  // An address this instance saw trying lately waits behind newcomers when the hash queue is long, and is
  // told so before anything is written when there is no room for it (a flood costs no database work then).
  const priority: HashPriority = sawLoginAttemptFrom(clientAddress) ? "later" : "first";
  const full = hashQueueRefusal(priority);
  if (full) return { ok: false, reason: "busy", retryAfterSeconds: full.retryAfterSeconds };
  // Recorded before the (slow) check, so concurrent guesses count against each other (see login-attempt.server).
  const attempt = await beginLoginAttempt(email, clientAddress);
  if (!attempt.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: attempt.retryAfterSeconds };

  let user: Awaited<ReturnType<typeof getUserWithPasswordByEmail>>;
  let valid: boolean;
  try {
    user = await getUserWithPasswordByEmail(email);
    valid = await verifyPassword(
      user?.password_hash ?? (await decoyPasswordHash()),
      password,
      priority === "later" ? "later" : attempt.hashPriority,
    );
  } catch (error) {
    if (!(error instanceof PasswordHashingBusy)) throw error;
    await loginAttemptAbandoned(attempt.attemptId);
    return { ok: false, reason: "busy", retryAfterSeconds: error.retryAfterSeconds };
  }
  // A wrong password leaves the attempt recorded: it is the failure. Known and unknown emails answer alike.
  if (!user || !valid) return { ok: false, reason: "invalid" };
  await loginAttemptSucceeded(email, attempt.attemptId);
  // Told only to whoever knows the password: a disabled account is not revealed to guessers.
  if (user.disabled_at) return { ok: false, reason: "disabled" };
  return { ok: true, user: { id: user.id, email: user.email } };
}

export function throttledMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** What login answers a disabled account (403 on the API, the Login screen's message). */
export const ACCOUNT_DISABLED_MESSAGE = msg(
  "This account is disabled. Ask the person who runs this studio to enable it.",
);

export type RegistrationResult =
  | { ok: true; user: User }
  | { ok: false; reason: "closed" }
  | { ok: false; reason: "invitation" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number }
  | { ok: false; reason: "busy"; retryAfterSeconds: number };

/**
 * Creates an account unless the client address has registered too often lately (429) or the server's
 * hash queue is full (503, the registration is then not counted); EmailTakenError as createUser.
 */
export async function registerWithPassword(
  email: string,
  password: string,
  clientAddress: string,
  invitation: string | null = null,
  mode: RegistrationMode = env.registration,
): Promise<RegistrationResult> {
  // REGISTRATION: closed refuses everyone, invite anyone without a usable invitation, before any hash or count.
  if (mode === "closed") return { ok: false, reason: "closed" };
  if (mode === "invite" && !(await invitationIsUsable(invitation))) return { ok: false, reason: "invitation" };
  // No room in the hash queue: told before anything is written or counted.
  const full = hashQueueRefusal(isLoopbackAddress(clientAddress) ? "first" : "later");
  if (full) return { ok: false, reason: "busy", retryAfterSeconds: full.retryAfterSeconds };
  const allowance = await beginRegistration(clientAddress);
  if (!allowance.allowed) return { ok: false, reason: "throttled", retryAfterSeconds: allowance.retryAfterSeconds };
  try {
    // This machine's own registrations (local scripts, the test suites) wait no longer than a newcomer's login.
    return {
      ok: true,
      user: await createUser(
        email,
        password,
        isLoopbackAddress(clientAddress) ? "first" : "later",
        mode === "invite" ? invitation : null,
      ),
    };
  } catch (error) {
    // Another registration used the invitation between the check and the claim.
    if (error instanceof InvitationNeededError) return { ok: false, reason: "invitation" };
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
