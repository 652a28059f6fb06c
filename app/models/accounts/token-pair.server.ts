import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { db } from "~/lib/db/db.server";
import type { Database } from "~/lib/db/db-schema";
import { env } from "~/lib/settings/env.server";
import { keys } from "~/lib/settings/keys.server";
import { newId, nowIso, randomToken, sha256 } from "~/lib/db/ids.server";
import { endSessionOfFamily, holdLiveSession, recordSession } from "./sessions.server";
import { signAccessToken } from "./access-token.server";

/**
 * Token pairs: a short-lived signed access token (JWT, HS256, sub = user id, fid = token family) and
 * an opaque refresh token stored only as a hash, rotated on every use. For a few seconds after an
 * exchange (REFRESH_GRACE_MS) the spent token answers with the same successor pair, kept sealed in its
 * row, so parallel refreshes and retries succeed on every instance; presented again after that, it is
 * treated as theft: the whole family (every descendant of one login) is revoked.
 * An access token (signed and checked in app/models/accounts/access-token.server.ts) is only good while its family
 * is live (its session not revoked, a token not revoked nor expired): logout and reuse detection end every copy of the session on its next request, on every
 * instance (the state is the sessions and refresh_tokens tables, two indexed lookups per request). A
 * rotation holds the family's session row while it makes the successor, and every revoke holds it to
 * end it (app/models/accounts/sessions.server.ts; docs/decisions/0050).
 */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: "bearer";
}

async function storeRefreshToken(userId: string, familyId: string, now: Date, database: Kysely<Database> = db) {
  const refreshToken = randomToken(32);
  await database
    .insertInto("refresh_tokens")
    .values({
      id: newId(),
      user_id: userId,
      family_id: familyId,
      token_hash: sha256(refreshToken),
      created_at: nowIso(now),
      expires_at: nowIso(new Date(now.getTime() + env.refreshTokenDays * 86_400_000)),
      used_at: null,
      revoked_at: null,
      successor_sealed: null,
    })
    .execute();
  return refreshToken;
}

/**
 * Notes that the person was seen (`npm run admin -- users`' "last seen"): at a login and at each
 * rotation, so at most once per ACCESS_TOKEN_MINUTES per session, outside any transaction. Never rejects.
 */
async function noteSeen(userId: string, now: Date): Promise<void> {
  try {
    await db
      .updateTable("users")
      .set({ last_seen_at: nowIso(now) })
      .where("id", "=", userId)
      .execute();
  } catch (error) {
    console.error("[studio] could not note when a person was last seen", error);
  }
}

/** A new login: a new token family, recorded as a session with the device its User-Agent names. */
export async function issueTokenPair(
  userId: string,
  now = new Date(),
  userAgent: string | null = null,
): Promise<TokenPair> {
  const familyId = newId();
  // Together: the housekeeping never sees the session without its token (it would prune the row, and a
  // family without its row is not live).
  const [access_token, refresh_token] = await Promise.all([
    signAccessToken(userId, familyId, now),
    db.transaction().execute(async (trx) => {
      await recordSession(trx, { id: familyId, userId, userAgent, now });
      return storeRefreshToken(userId, familyId, now, trx);
    }),
  ]);
  await noteSeen(userId, now);
  return { access_token, refresh_token, token_type: "bearer" };
}

export type RotationResult =
  { ok: true; userId: string; pair: TokenPair } | { ok: false; reason: "unknown" | "expired" | "revoked" | "reused" };

/**
 * The grace window of rotation (RFC 9700 §4.14.2): for this long after a refresh token was exchanged,
 * presenting it again answers with the very pair it was exchanged for (parallel refreshes of one token,
 * a retry after a lost response, a page load's requests on several instances) instead of counting as
 * theft. After it, reuse revokes the whole family, as always.
 */
export const REFRESH_GRACE_MS = 10_000;
/** How long a request that lost the race waits for the winner's pair to be recorded, and how often it looks. */
const SUCCESSOR_WAIT_MS = 2_000;
const SUCCESSOR_POLL_MS = 25;

export interface RotationOptions {
  /** The grace window (tests); REFRESH_GRACE_MS unless given. */
  graceMs?: number;
  /** The longest wait for a winner's pair (tests); SUCCESSOR_WAIT_MS unless given. */
  waitMs?: number;
}

/*
 * The successor pair is kept in the spent token's row (refresh_tokens.successor_sealed) so every
 * instance can answer a replay within the window, but never in plaintext: AES-256-GCM under a key
 * derived from the session secret with HKDF-SHA256, a fresh 12-byte IV per seal, and the row's id as
 * additional data (a sealed pair copied into another row does not open). Format: v1.<iv>.<ciphertext>.<tag>,
 * base64url. Whoever reads the database alone cannot use it.
 */
const sealingKey = () => keys.refreshSuccessor();

function sealSuccessor(rowId: string, pair: TokenPair): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(), iv);
  cipher.setAAD(Buffer.from(rowId, "utf8"));
  const plaintext = JSON.stringify({ a: pair.access_token, r: pair.refresh_token });
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The sealed pair, or null when it does not open (another secret, another row, tampered, unknown format). */
function openSuccessor(rowId: string, sealed: string): TokenPair | null {
  const [version, iv, ciphertext, tag, ...rest] = sealed.split(".");
  if (version !== "v1" || !iv || !ciphertext || !tag || rest.length > 0) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealingKey(), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(rowId, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    const plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
      "utf8",
    );
    const { a, r } = JSON.parse(plaintext) as { a?: unknown; r?: unknown };
    if (typeof a !== "string" || typeof r !== "string") return null;
    return { access_token: a, refresh_token: r, token_type: "bearer" };
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const findToken = (column: "token_hash" | "id", value: string) =>
  db.selectFrom("refresh_tokens").selectAll().where(column, "=", value).executeTakeFirst();

type StoredToken = NonNullable<Awaited<ReturnType<typeof findToken>>>;

/**
 * Exchanges a refresh token for a new pair in the same family. Exactly one exchange of a token wins
 * (a conditional update: `used_at is null`), on one instance or several sharing the database; within
 * the grace window every other presentation of the token answers with the winner's pair; after it,
 * presenting the spent token revokes the family.
 */
export async function rotateRefreshToken(
  refreshToken: string,
  now = new Date(),
  options: RotationOptions = {},
): Promise<RotationResult> {
  const stored = await findToken("token_hash", sha256(refreshToken));
  if (!stored) return { ok: false, reason: "unknown" };
  if (stored.revoked_at) return { ok: false, reason: "revoked" };
  if (stored.used_at) return answerSpentToken(stored, now, options);
  if (stored.expires_at <= nowIso(now)) return { ok: false, reason: "expired" };

  // Claim the token, create its successor and record the sealed pair in one transaction: nobody sees
  // the token spent without its pair (a crash in between leaves the token unspent), and a concurrent
  // claim waits for this one (PostgreSQL's row lock; SQLite's write lock, across processes too) and
  // then finds the token spent, with the pair. First of all the session's row is held: a revoke that
  // holds it first has ended the session (no successor is made); one that comes after waits, and then
  // sees the successor and revokes it too.
  const pair = await db.transaction().execute(async (trx) => {
    if (!(await holdLiveSession(trx, stored.family_id, stored.user_id))) return "revoked" as const;
    const claimed = await trx
      .updateTable("refresh_tokens")
      .set({ used_at: nowIso(now) })
      .where("id", "=", stored.id)
      .where("used_at", "is", null)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return null;
    const [access_token, refresh_token] = await Promise.all([
      signAccessToken(stored.user_id, stored.family_id, now),
      storeRefreshToken(stored.user_id, stored.family_id, now, trx),
    ]);
    const successor: TokenPair = { access_token, refresh_token, token_type: "bearer" };
    await trx
      .updateTable("refresh_tokens")
      .set({ successor_sealed: sealSuccessor(stored.id, successor) })
      .where("id", "=", stored.id)
      .execute();
    return successor;
  });
  if (pair === "revoked") return { ok: false, reason: "revoked" };
  if (pair) {
    await noteSeen(stored.user_id, now);
    return { ok: true, userId: stored.user_id, pair };
  }

  // Another exchange of this token (here or on another instance) won a moment ago: answer with its pair.
  const current = await findToken("id", stored.id);
  if (!current) return { ok: false, reason: "unknown" };
  if (current.revoked_at) return { ok: false, reason: "revoked" };
  return answerSpentToken(current, now, options);
}

/**
 * A spent token presented again: within the grace window, the pair it was exchanged for (waiting a
 * moment, bounded, should it not be recorded yet); after the window, or when no pair can be found,
 * reuse: the whole family is revoked.
 */
async function answerSpentToken(stored: StoredToken, now: Date, options: RotationOptions): Promise<RotationResult> {
  const graceMs = options.graceMs ?? REFRESH_GRACE_MS;
  const usedAt = Date.parse(stored.used_at ?? "");
  const withinGrace = Number.isFinite(usedAt) && now.getTime() - usedAt <= graceMs;
  if (withinGrace) {
    const deadline = Date.now() + (options.waitMs ?? SUCCESSOR_WAIT_MS);
    let row: StoredToken | undefined = stored;
    for (;;) {
      if (!row) return { ok: false, reason: "unknown" };
      if (row.revoked_at) return { ok: false, reason: "revoked" };
      const pair = row.successor_sealed ? openSuccessor(row.id, row.successor_sealed) : null;
      if (pair) return { ok: true, userId: row.user_id, pair };
      if (Date.now() >= deadline) break;
      await sleep(SUCCESSOR_POLL_MS);
      row = await findToken("id", stored.id);
    }
  }
  await revokeFamily(stored.family_id, now);
  return { ok: false, reason: "reused" };
}

/** Ends the family's session and revokes its every token (reuse detection; logout). */
export async function revokeFamily(familyId: string, now = new Date()) {
  await endSessionOfFamily(familyId, now);
}

/** Logout: the refresh token's whole family stops working. Unknown tokens are ignored. */
export async function revokeRefreshToken(refreshToken: string, now = new Date()) {
  const stored = await db
    .selectFrom("refresh_tokens")
    .select("family_id")
    .where("token_hash", "=", sha256(refreshToken))
    .executeTakeFirst();
  if (stored) await revokeFamily(stored.family_id, now);
}

/** Housekeeping: expired tokens are of no use to anyone. */
export async function deleteExpiredRefreshTokens(now = new Date()) {
  await db.deleteFrom("refresh_tokens").where("expires_at", "<=", nowIso(now)).execute();
}

/** Housekeeping: sealed successor pairs are of no use once the grace window has passed; none is kept longer. */
export async function clearSpentSuccessors(now = new Date(), graceMs = REFRESH_GRACE_MS) {
  await db
    .updateTable("refresh_tokens")
    .set({ successor_sealed: null })
    .where("successor_sealed", "is not", null)
    .where("used_at", "<", nowIso(new Date(now.getTime() - graceMs)))
    .execute();
}
