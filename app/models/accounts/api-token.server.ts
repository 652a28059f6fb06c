import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "~/lib/db/db-schema";
import { forUpdate, lockKey } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { newId, nowIso, randomToken, sha256 } from "~/lib/db/ids.server";
import { displayText } from "~/common/media/media-names";
import { ACCOUNT_DISABLED_MESSAGE } from "./credentials.server";
import type { User } from "./user.server";
import { interpolate, msg } from "~/common/i18n/translate";

/**
 * Personal API tokens (docs/decisions/0047): a person makes one for a script, which sends it
 * as `Authorization: Bearer cas_…` on any /api call. The token is 32 random bytes (base64url) after a
 * recognisable prefix; only its SHA-256 is stored (a high-entropy secret needs no slow hash), so the
 * token is shown once, when made. Revoking deletes the row: the next request with it is 401, on every
 * instance (every request looks the hash up in the database).
 */
export const API_TOKEN_PREFIX = "cas_";
/** How many tokens one person may hold; another is refused (409) until one is revoked. */
export const API_TOKENS_MAX = 50;
export const API_TOKEN_NAME_MAX = 100;
/** "Last used" moves at most this often per token. */
export const API_TOKEN_TOUCH_MS = 60_000;

const TOKEN_NAME_NEEDED = msg("Enter a name for the token");
/** The texts of this module with a value, for a screen to say in its language (accountText). */
export const TOKEN_NAME_TOO_LONG = [
  msg("A token's name must be at most {{max}} characters"),
  { max: API_TOKEN_NAME_MAX },
] as const;
export const TOO_MANY_TOKENS = [
  msg("You have {{max}} API tokens, the most one person may have. Revoke one before making another."),
  { max: API_TOKENS_MAX },
] as const;

export const apiTokenNameSchema = z
  .string({ error: TOKEN_NAME_NEEDED })
  // Shown as one line: control characters as spaces, bidirectional controls dropped (as titles are).
  .transform((name) => displayText(name).trim())
  .pipe(
    z
      .string()
      .min(1, TOKEN_NAME_NEEDED)
      .max(API_TOKEN_NAME_MAX, interpolate(...TOKEN_NAME_TOO_LONG)),
  );

export interface ApiTokenView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface NewApiToken {
  id: string;
  name: string;
  /** The token itself: shown once, never stored. */
  token: string;
  created_at: string;
}

export const isApiToken = (token: string) => token.startsWith(API_TOKEN_PREFIX);

export const tooManyApiTokens = () =>
  new DomainError(409, interpolate(...TOO_MANY_TOKENS), { code: "api_tokens_limit" });

/** Makes a token named `name` (already checked by apiTokenNameSchema); 409 past API_TOKENS_MAX. */
export async function createApiToken(userId: string, name: string, now = new Date()): Promise<NewApiToken> {
  const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const row = {
    id: newId(),
    user_id: userId,
    name,
    token_hash: sha256(token),
    created_at: nowIso(now),
    last_used_at: null,
  };
  // The count and the insert take turns per person (PostgreSQL's advisory lock; SQLite's one writer).
  await db.transaction().execute(async (trx) => {
    // Disabled after this request was let in: `disable` holds this row while it revokes the person's
    // tokens, so a token made now is either revoked by it or refused here (never one that `enable` revives).
    const owner = await forUpdate(
      trx.selectFrom("users").select("disabled_at").where("id", "=", userId),
      trx,
    ).executeTakeFirst();
    if (owner?.disabled_at) throw new DomainError(403, ACCOUNT_DISABLED_MESSAGE);
    await lockKey(trx, "api_tokens", userId);
    const { count } = await trx
      .selectFrom("api_tokens")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= API_TOKENS_MAX) throw tooManyApiTokens();
    await trx.insertInto("api_tokens").values(row).execute();
  });
  return { id: row.id, name, token, created_at: row.created_at };
}

/** The person's tokens, newest first: never the token, never its hash. */
export function listApiTokens(userId: string): Promise<ApiTokenView[]> {
  return db
    .selectFrom("api_tokens")
    .select(["id", "name", "created_at", "last_used_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
}

/** Revokes (deletes) one of the person's tokens; false when they have none by that id. */
export async function revokeApiToken(userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom("api_tokens")
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Revokes (deletes) every token of the person: `npm run admin -- tokens revoke`, `disable` (for good:
 * `enable` brings none back) and a password change with "also revoke API tokens". On `database` (a
 * transaction, e.g. with the disable). Returns how many were revoked.
 */
export async function revokeAllApiTokens(userId: string, database: Kysely<Database> = db): Promise<number> {
  const result = await database.deleteFrom("api_tokens").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** When this instance last moved each token's "last used" (bounds writes; nothing read comes from here). */
const touched = new Map<string, number>();
const TOUCHED_MAX = 10_000;

/** The person a personal API token belongs to, or null (unknown, revoked, malformed). Moves its "last used". */
export async function userOfApiToken(token: string, now = new Date()): Promise<User | null> {
  if (!isApiToken(token) || token.length > 200) return null;
  const row = await db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.user_id")
    .select(["api_tokens.id as tokenId", "users.id", "users.email"])
    .where("api_tokens.token_hash", "=", sha256(token))
    // `disable` deletes the person's tokens; this also refuses one used while that runs.
    .where("users.disabled_at", "is", null)
    .executeTakeFirst();
  if (!row) return null;
  const last = touched.get(row.tokenId);
  if (last === undefined || now.getTime() - last >= API_TOKEN_TOUCH_MS) {
    touched.delete(row.tokenId);
    if (touched.size >= TOUCHED_MAX) touched.delete(touched.keys().next().value!);
    touched.set(row.tokenId, now.getTime());
    await db
      .updateTable("api_tokens")
      .set({ last_used_at: nowIso(now) })
      .where("id", "=", row.tokenId)
      .where((eb) =>
        eb.or([
          eb("last_used_at", "is", null),
          eb("last_used_at", "<", nowIso(new Date(now.getTime() - API_TOKEN_TOUCH_MS))),
        ]),
      )
      .execute();
  }
  return { id: row.id, email: row.email };
}
