import { jwtVerify, SignJWT } from "jose";
import { db } from "~/lib/db.server";
import { env, sessionSecret } from "~/lib/env.server";
import { newId, nowIso, randomToken, sha256 } from "~/lib/ids.server";
import { pruneLoginAttempts, pruneRegistrationAttempts } from "./login-attempt.server";

/**
 * Token pairs: a short-lived signed access token (JWT, HS256, sub = user id, fid = token family) and
 * an opaque refresh token stored only as a hash, rotated on every use. Presenting a refresh token that
 * was already exchanged is treated as theft: the whole family (every descendant of one login) is revoked.
 * An access token is only good while its family is live (not revoked, not expired): logout and reuse
 * detection end every copy of the session on its next request, on every instance (the state is the
 * refresh_tokens table, one indexed lookup per request).
 */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: "bearer";
}

const ISSUER = "creative-ai-studio";
let signingKey: Uint8Array | undefined;
const key = () => (signingKey ??= new TextEncoder().encode(`access-token:${sessionSecret()}`));

/** The claim naming the refresh-token family (one login) an access token belongs to. */
const FAMILY_CLAIM = "fid";

async function signAccessToken(userId: string, familyId: string, now: Date) {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ [FAMILY_CLAIM]: familyId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + env.accessTokenMinutes * 60)
    .sign(key());
}

/**
 * The user id inside a valid, unexpired access token whose family is still live, or null. `exp`, `sub`
 * and the family claim are required: a token signed without an expiry would otherwise never expire.
 */
export async function verifyAccessToken(token: string, now = new Date()): Promise<string | null> {
  let userId: string;
  let familyId: string;
  try {
    const { payload } = await jwtVerify(token, key(), {
      issuer: ISSUER,
      algorithms: ["HS256"],
      currentDate: now,
      requiredClaims: ["exp", "sub", FAMILY_CLAIM],
    });
    const family = payload[FAMILY_CLAIM];
    if (typeof payload.sub !== "string" || typeof family !== "string") return null;
    userId = payload.sub;
    familyId = family;
  } catch {
    return null;
  }
  return (await isFamilyLive(userId, familyId, now)) ? userId : null;
}

/** A family is live while one of its refresh tokens is neither revoked nor expired (the newest one, in practice). */
export async function isFamilyLive(userId: string, familyId: string, now = new Date()): Promise<boolean> {
  const row = await db
    .selectFrom("refresh_tokens")
    .select("id")
    .where("family_id", "=", familyId)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

async function storeRefreshToken(userId: string, familyId: string, now: Date) {
  const refreshToken = randomToken(32);
  await db
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
    })
    .execute();
  return refreshToken;
}

/** A new login: a new token family. */
export async function issueTokenPair(userId: string, now = new Date()): Promise<TokenPair> {
  const familyId = newId();
  const [access_token, refresh_token] = await Promise.all([
    signAccessToken(userId, familyId, now),
    storeRefreshToken(userId, familyId, now),
  ]);
  return { access_token, refresh_token, token_type: "bearer" };
}

export type RotationResult =
  | { ok: true; userId: string; pair: TokenPair }
  | { ok: false; reason: "unknown" | "expired" | "revoked" | "reused" };

/** Exchanges a refresh token for a new pair in the same family. */
export async function rotateRefreshToken(refreshToken: string, now = new Date()): Promise<RotationResult> {
  const tokenHash = sha256(refreshToken);
  const stored = await db.selectFrom("refresh_tokens").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
  if (!stored) return { ok: false, reason: "unknown" };
  if (stored.revoked_at) return { ok: false, reason: "revoked" };
  if (stored.used_at) {
    await revokeFamily(stored.family_id, now);
    return { ok: false, reason: "reused" };
  }
  if (stored.expires_at <= nowIso(now)) return { ok: false, reason: "expired" };

  // Claim the token atomically: of two concurrent exchanges only one updates the row.
  const claimed = await db
    .updateTable("refresh_tokens")
    .set({ used_at: nowIso(now) })
    .where("id", "=", stored.id)
    .where("used_at", "is", null)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    await revokeFamily(stored.family_id, now);
    return { ok: false, reason: "reused" };
  }
  const [access_token, refresh_token] = await Promise.all([
    signAccessToken(stored.user_id, stored.family_id, now),
    storeRefreshToken(stored.user_id, stored.family_id, now),
  ]);
  return { ok: true, userId: stored.user_id, pair: { access_token, refresh_token, token_type: "bearer" } };
}

/**
 * The server refreshes a browser's session when its access token has expired. A page load fires
 * several requests at once with the same cookie; they must share one rotation, not trip reuse detection.
 * Results are kept for a few seconds in this process only.
 */
const recentRotations = new Map<string, Promise<RotationResult>>();
const SHARED_ROTATION_MS = 10_000;

export function rotateRefreshTokenShared(refreshToken: string): Promise<RotationResult> {
  const tokenHash = sha256(refreshToken);
  let rotation = recentRotations.get(tokenHash);
  if (!rotation) {
    rotation = rotateRefreshToken(refreshToken);
    recentRotations.set(tokenHash, rotation);
    setTimeout(() => recentRotations.delete(tokenHash), SHARED_ROTATION_MS).unref();
  }
  return rotation;
}

export async function revokeFamily(familyId: string, now = new Date()) {
  await db
    .updateTable("refresh_tokens")
    .set({ revoked_at: nowIso(now) })
    .where("family_id", "=", familyId)
    .where("revoked_at", "is", null)
    .execute();
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

/** Housekeeping: rows that no longer count for anything (expired tokens, attempts older than their window). */
export async function pruneStaleRecords(now = new Date()) {
  await deleteExpiredRefreshTokens(now);
  await pruneLoginAttempts(now);
  await pruneRegistrationAttempts(now);
}

/**
 * Housekeeping of sessions and login throttles, as one plain call: nothing runs on import. The server's
 * life cycle (app/services/housekeeping.server.ts) schedules it at start and then hourly. Never rejects:
 * a failure is logged and the next run tries again.
 */
export async function pruneExpiredSessions(now = new Date()): Promise<void> {
  try {
    await pruneStaleRecords(now);
  } catch (error) {
    console.error("[studio] housekeeping failed", error);
  }
}
