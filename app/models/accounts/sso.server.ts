import { randomBytes } from "node:crypto";
import { env } from "~/lib/settings/env.server";
import type { RegistrationMode } from "~/lib/settings/server-variables";
import { registerWithPassword } from "./credentials.server";
import { EmailTakenError, getUserWithPasswordByEmail, type User } from "./user.server";

export type SsoAccountResult =
  | { ok: true; user: User; created: boolean }
  /** No account has this email, and registration is not open: nothing was created. */
  | { ok: false; reason: "unknown"; mode: Exclude<RegistrationMode, "open"> }
  | { ok: false; reason: "throttled" | "busy"; retryAfterSeconds: number }
  /** The account exists and the operator disabled it (`npm run admin -- disable`). */
  | { ok: false; reason: "disabled" }
  /** The sign-on carried an invitation that is unknown, used or expired: nothing was created. */
  | { ok: false; reason: "invitation" };

/**
 * The account a single sign-on stands for (decision 0048): the one whose email is the provider's
 * verified email, or a new one when registration is open, or when it is by invitation and the sign-on
 * began from an invitation link (`invitation`, claimed as the Register screen claims it: once, before it
 * expires). A new account gets a random password nobody knows (the person signs in through their
 * provider), and counts as a registration from the client's address (REGISTER_MAX_PER_ADDRESS, the
 * hash queue), as the Register screen's would. `email` must be verified by the provider and normalised
 * (emailSchema) before it gets here.
 */
export async function accountForVerifiedEmail(
  email: string,
  clientAddress: string,
  mode: RegistrationMode = env.registration,
  invitation: string | null = null,
): Promise<SsoAccountResult> {
  const existing = await getUserWithPasswordByEmail(email);
  if (existing?.disabled_at) return { ok: false, reason: "disabled" };
  if (existing) return { ok: true, user: { id: existing.id, email: existing.email }, created: false };
  if (mode === "closed" || (mode === "invite" && !invitation)) return { ok: false, reason: "unknown", mode };
  try {
    const registered = await registerWithPassword(
      email,
      randomBytes(32).toString("base64url"),
      clientAddress,
      invitation,
      mode,
    );
    if (registered.ok) return { ok: true, user: registered.user, created: true };
    if (registered.reason === "invitation") return { ok: false, reason: "invitation" };
    // Closed was answered above; told as such should it come back.
    if (registered.reason === "closed") return { ok: false, reason: "unknown", mode: "closed" };
    return registered;
  } catch (error) {
    // Two sign-ins (or a registration) of the same new email at once: the other one created it.
    if (!(error instanceof EmailTakenError)) throw error;
    const raced = await findUser(email);
    if (!raced) throw error;
    return { ok: true, user: raced, created: false };
  }
}

async function findUser(email: string): Promise<User | null> {
  const row = await getUserWithPasswordByEmail(email);
  return row ? { id: row.id, email: row.email } : null;
}
