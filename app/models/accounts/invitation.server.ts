import type { Kysely } from "kysely";
import { db } from "~/lib/db/db.server";
import type { Database } from "~/lib/db/db-schema";
import { newId, nowIso, randomToken, sha256 } from "~/lib/db/ids.server";

/**
 * Invitation links of REGISTRATION=invite (docs/decisions/0046): `npm run admin -- invite`
 * makes one, `/register?invite=CODE` uses it. The code is 128 random bits, kept only as its SHA-256
 * (whoever reads the database cannot register with it). An invitation works once: the registration's
 * transaction claims it with a conditional update (`used_at is null`, not expired) before it inserts
 * the account, so of two registrations racing with one code exactly one succeeds (PostgreSQL's row
 * lock makes the second re-check and find it used; SQLite's writer lock runs them one after the other),
 * and a registration that fails after the claim (a taken email) rolls the claim back.
 */
export const INVITATION_DEFAULT_DAYS = 7;
/** The longest an invitation may be made for (`--days`). */
export const INVITATION_MAX_DAYS = 365;
/** A code as the links carry it (randomToken(16): 22 base64url characters); anything else is not looked up. */
const CODE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export interface Invitation {
  id: string;
  code: string;
  expiresAt: string;
}

/** A new invitation, valid for `days` days from `now`; the code is returned once and never stored. */
export async function createInvitation(days = INVITATION_DEFAULT_DAYS, now = new Date()): Promise<Invitation> {
  const code = randomToken(16);
  const id = newId();
  const expiresAt = nowIso(new Date(now.getTime() + days * 86_400_000));
  await db
    .insertInto("invitations")
    .values({
      id,
      code_hash: sha256(code),
      created_at: nowIso(now),
      expires_at: expiresAt,
      used_at: null,
      used_by: null,
    })
    .execute();
  return { id, code, expiresAt };
}

const wellFormed = (code: string | null | undefined): code is string =>
  typeof code === "string" && CODE_PATTERN.test(code);

/** Whether the code names an invitation that is unused and unexpired now (the Register screen asks before showing its form). */
export async function invitationIsUsable(code: string | null | undefined, now = new Date()): Promise<boolean> {
  if (!wellFormed(code)) return false;
  const row = await db
    .selectFrom("invitations")
    .select("id")
    .where("code_hash", "=", sha256(code))
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Inside the registration's transaction: marks the invitation used by `userId`. False when the code
 * names no usable invitation (unknown, expired, or used by another registration, even one racing now).
 */
export async function claimInvitation(
  trx: Kysely<Database>,
  code: string,
  userId: string,
  now = new Date(),
): Promise<boolean> {
  if (!wellFormed(code)) return false;
  const result = await trx
    .updateTable("invitations")
    .set({ used_at: nowIso(now), used_by: userId })
    .where("code_hash", "=", sha256(code))
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Housekeeping: invitations that expired a day ago or more count for nothing. */
export async function pruneExpiredInvitations(now = new Date()): Promise<void> {
  await db
    .deleteFrom("invitations")
    .where("expires_at", "<", nowIso(new Date(now.getTime() - 86_400_000)))
    .execute();
}
