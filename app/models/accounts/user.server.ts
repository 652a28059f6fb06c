import { isUniqueViolation } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { newId, nowIso } from "~/lib/db/ids.server";
import { claimInvitation } from "./invitation.server";
import { hashPassword, type HashPriority } from "./password.server";
import { msg } from "~/common/i18n/translate";

export interface User {
  id: string;
  email: string;
  /** The screens' language the person chose (docs/translating.md); null or absent: not chosen. */
  language?: string | null;
}

export class EmailTakenError extends Error {
  constructor() {
    super("Email already exists");
  }
}

/** The email cannot be an address (e.g. it holds U+0000); the schemas normally refuse it first. */
export class InvalidEmailError extends DomainError {
  constructor() {
    super(422, msg("Enter a valid email address"));
  }
}

/** REGISTRATION=invite and the invitation is unknown, expired or already used (403). */
export class InvitationNeededError extends DomainError {
  constructor() {
    super(403, INVITATION_NEEDED_MESSAGE);
  }
}

export const INVITATION_NEEDED_MESSAGE = msg(
  "An invitation is needed to register here. Ask the person who runs this studio for an invitation link; each link works once and expires.",
);
export const REGISTRATION_CLOSED_MESSAGE = msg(
  "Registration is closed on this studio. Ask the person who runs it for an account.",
);

/**
 * Creates an account; email must already be normalised (credentialsSchema). With `invitation` (a code
 * of REGISTRATION=invite) the account and the invitation's use are one transaction: InvitationNeededError
 * and nothing kept when the invitation cannot be used (another registration used it first included).
 */
export async function createUser(
  email: string,
  password: string,
  hashPriority: HashPriority = "later",
  invitation: string | null = null,
): Promise<User> {
  // No valid address holds U+0000 (PostgreSQL could not store it either): refused like a malformed one.
  if (email.includes("\u0000")) throw new InvalidEmailError();
  const existing = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (existing) throw new EmailTakenError();
  const user = { id: newId(), email };
  const password_hash = await hashPassword(password, hashPriority);
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("users")
        .values({ ...user, password_hash, created_at: nowIso() })
        .execute();
      if (invitation !== null && !(await claimInvitation(trx, invitation, user.id))) throw new InvitationNeededError();
    });
  } catch (error) {
    // Two registrations racing for one email: the unique index decides (by error code, on both engines).
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  return user;
}

export async function getUserWithPasswordByEmail(email: string) {
  // Emails are stored lower-cased (credentialsSchema) and compared exactly, the same on both engines;
  // one with U+0000 cannot exist (createUser refuses it), and PostgreSQL would refuse the parameter.
  if (email.includes("\u0000")) return undefined;
  return db
    .selectFrom("users")
    .select(["id", "email", "password_hash", "disabled_at"])
    .where("email", "=", email)
    .executeTakeFirst();
}

/**
 * Whether the account may still act on its own behalf: "active", "disabled" (`npm run admin -- disable`)
 * or "missing" (deleted). Read where something made earlier is used without a session, e.g. a signed
 * file link: its owner is checked at every use, so a disable stops it at once.
 */
export async function accountState(userId: string): Promise<"active" | "disabled" | "missing"> {
  const row = await db.selectFrom("users").select("disabled_at").where("id", "=", userId).executeTakeFirst();
  if (!row) return "missing";
  return row.disabled_at ? "disabled" : "active";
}

/** Saves the screens' language the person chose (a tag the preferences action checked), for every browser they sign in on. */
export async function saveLanguage(userId: string, language: string): Promise<void> {
  await db.updateTable("users").set({ language }).where("id", "=", userId).execute();
}
