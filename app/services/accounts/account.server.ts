import { z } from "zod";
import { DomainError } from "~/lib/domain-error";
import { firstIssue } from "~/lib/screens/validation.server";
import { aiLimitsFromSettings, countAiRequestsSince, dailyAiLimitOf } from "~/models/ai-usage.server";
import {
  ACCOUNT_DISABLED_MESSAGE,
  busyMessage,
  loginWithPassword,
  throttledMessage,
} from "~/models/accounts/credentials.server";
import { revokeAllApiTokens } from "~/models/accounts/api-token.server";
import { revokeAllShares } from "~/models/sharing/share.server";
import { storageUsage } from "~/models/media/library-files.server";
import { hashPassword } from "~/models/accounts/password.server";
import { listSessions, replacePasswordEndingOtherSessions, type SessionView } from "~/models/accounts/sessions.server";
import type { User } from "~/models/accounts/user.server";
import { PASSWORD_MAX, passwordSchema } from "~/common/account-rules";
import { msg } from "~/common/i18n/translate";

/**
 * The account screen's and /api/account's shared work (docs/decisions/0047): both doors
 * call these, so a password change or the usage reads the same whichever way it comes.
 */

/** Who asks, and through which session (null: a personal API token, which is no session). */
export interface AccountCaller {
  user: User;
  sessionId: string | null;
}

export const WRONG_CURRENT_PASSWORD = msg("Your current password is incorrect.");

export const passwordChangeSchema = z.object({
  current_password: z
    .string({ error: msg("Enter your current password") })
    .min(1, msg("Enter your current password"))
    .max(PASSWORD_MAX, WRONG_CURRENT_PASSWORD),
  new_password: passwordSchema,
  // "Also revoke API tokens": on unless asked otherwise (docs/decisions/0051).
  revoke_tokens: z.boolean({ error: "revoke_tokens must be true or false" }).default(true),
  // "Also end my share links": off unless asked, since others hold the links (docs/decisions/0090).
  revoke_shares: z.boolean({ error: "revoke_shares must be true or false" }).default(false),
});

export type PasswordChangeField = "current_password" | "new_password";

/** A refusal that belongs beside one field of the form: 400, with the field as its code. */
const fieldRefusal = (field: PasswordChangeField, detail: string) => new DomainError(400, detail, { code: field });

/**
 * Changes the person's password when `current_password` is theirs, and ends every other session (the
 * caller's own, if it is one, goes on). With `revoke_tokens` (the default) every personal API token of
 * the person is revoked too, and with `revoke_shares` (off unless asked) every share link they made,
 * both before the new password is stored: a change that fails after that has still ended them, as
 * asked, and never the reverse. The current password is checked as a login is (the same
 * per-account and per-address failure budgets, the same bounded hash queue): a wrong one is a 400 on
 * `current_password` and counts as a failed login; too many is 429, a full queue 503 (Retry-After).
 * A new password that breaks the account rules is a 400 on `new_password` with the rule's sentence.
 * Returns how many other sessions ended, how many tokens were revoked and how many links were ended.
 */
export async function changePassword(
  caller: AccountCaller,
  input: unknown,
  clientAddress: string,
): Promise<{ sessionsEnded: number; tokensRevoked: number; sharesRevoked: number }> {
  const parsed = passwordChangeSchema.safeParse(input);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    if (field === "revoke_tokens" || field === "revoke_shares")
      throw new DomainError(400, firstIssue(parsed.error), { code: field });
    throw fieldRefusal(field === "current_password" ? "current_password" : "new_password", firstIssue(parsed.error));
  }
  const { current_password, new_password, revoke_tokens, revoke_shares } = parsed.data;
  const check = await loginWithPassword(caller.user.email, current_password, clientAddress);
  if (!check.ok) {
    if (check.reason === "invalid") throw fieldRefusal("current_password", WRONG_CURRENT_PASSWORD);
    // Disabled while signed in (`npm run admin -- disable`): the login's own refusal.
    if (check.reason === "disabled") throw new DomainError(403, ACCOUNT_DISABLED_MESSAGE);
    const retry = { "Retry-After": String(check.retryAfterSeconds) };
    if (check.reason === "throttled")
      throw new DomainError(429, throttledMessage(check.retryAfterSeconds), { headers: retry });
    throw new DomainError(503, busyMessage(check.retryAfterSeconds), { headers: retry });
  }
  if (check.user.id !== caller.user.id) throw fieldRefusal("current_password", WRONG_CURRENT_PASSWORD);
  const hash = await hashPassword(new_password, "first");
  const tokensRevoked = revoke_tokens ? await revokeAllApiTokens(caller.user.id) : 0;
  const sharesRevoked = revoke_shares ? await revokeAllShares(caller.user.id) : 0;
  const sessionsEnded = await replacePasswordEndingOtherSessions(caller.user.id, hash, caller.sessionId);
  return { sessionsEnded, tokensRevoked, sharesRevoked };
}

export interface AccountSession extends SessionView {
  /** The session this request came through. */
  current: boolean;
}

/** The person's live sessions, the caller's own first and marked. */
export async function accountSessions(caller: AccountCaller): Promise<AccountSession[]> {
  const sessions = (await listSessions(caller.user.id)).map((session) => ({
    ...session,
    current: session.id === caller.sessionId,
  }));
  return [...sessions.filter((session) => session.current), ...sessions.filter((session) => !session.current)];
}

/**
 * What the person uses against their limits: storage against the quota, AI requests today (since
 * midnight UTC) against the per-minute and at-once limits and the daily cap (the person's own or
 * AI_DAILY_LIMIT). The one read of it, for the screen and the API alike.
 */
export interface AccountUsage {
  storage: { used_bytes: number; quota_bytes: number; text_bytes: number };
  ai: { requests_today: number; per_minute_limit: number; concurrent_limit: number; daily_limit: number | null };
}

export async function accountUsage(userId: string, now = new Date()): Promise<AccountUsage> {
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const [storage, requestsToday, dailyLimit] = await Promise.all([
    storageUsage(userId),
    countAiRequestsSince(userId, midnight),
    dailyAiLimitOf(userId),
  ]);
  const limits = aiLimitsFromSettings();
  return {
    storage: { used_bytes: storage.usedBytes, quota_bytes: storage.quotaBytes, text_bytes: storage.textBytes },
    ai: {
      requests_today: requestsToday,
      per_minute_limit: limits.perMinute,
      concurrent_limit: limits.concurrent,
      daily_limit: dailyLimit,
    },
  };
}
