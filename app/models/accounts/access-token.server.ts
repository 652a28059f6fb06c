import { jwtVerify, SignJWT } from "jose";
import type { Kysely } from "kysely";
import { compileOnce } from "~/lib/db/compiled-query.server";
import { db } from "~/lib/db/db.server";
import type { Database } from "~/lib/db/db-schema";
import { env } from "~/lib/settings/env.server";
import { keys } from "~/lib/settings/keys.server";
import { nowIso } from "~/lib/db/ids.server";
import { endSessionOfFamily, touchSession } from "./sessions.server";
import type { User } from "./user.server";

/**
 * Access tokens: short-lived signed JWTs (HS256, sub = user id, fid = the refresh-token family, i.e. the
 * session, they were issued with; app/models/accounts/token-pair.server.ts issues and rotates the pairs). A token is
 * only good while its family is live: its session not revoked, a refresh token of the family neither
 * revoked nor expired, its user not disabled (two indexed lookups per request).
 */
const ISSUER = "creative-ai-studio";
/**
 * The HS256 signing key as a Web Crypto CryptoKey, imported once. jose 6 works on Web Crypto: given the secret
 * as bytes (or as a node:crypto secret KeyObject, which it exports back to bytes) it imports a CryptoKey
 * on every sign and verify; a CryptoKey it uses as it is. Not extractable; good for sign and verify.
 */
let signingKey: Promise<CryptoKey> | undefined;
const key = () =>
  (signingKey ??= crypto.subtle.importKey("raw", keys.accessToken(), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]));

/** The claim naming the refresh-token family (one login) an access token belongs to. */
const FAMILY_CLAIM = "fid";

export async function signAccessToken(userId: string, familyId: string, now: Date) {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ [FAMILY_CLAIM]: familyId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + env.accessTokenMinutes * 60)
    .sign(await key());
}

/**
 * The claims of an HS256 JWT signed with our key and valid at `now`, or null. A token's signature, header,
 * issuer and claims are checked once, by jose (alg exactly HS256, no `crit`, `iss` ours, `exp`, `sub` and
 * the family claim present, `exp` after now, `nbf` not after now, the times numbers); later uses of the
 * same token take its claims from verifiedClaims and check only the times.
 */
export async function verifyAccessTokenSignature(token: string, now: Date): Promise<Record<string, unknown> | null> {
  const payload = verifiedClaims.get(token) ?? (await checkAccessToken(token, now));
  if (!payload) return null;
  const seconds = Math.floor(now.getTime() / 1000);
  if ((payload.exp as number) <= seconds) {
    verifiedClaims.delete(token);
    return null;
  }
  if (payload.nbf !== undefined && (payload.nbf as number) > seconds) return null;
  return payload;
}

/**
 * The claims of tokens already checked, by token: a client sends the same access token with every
 * request for its 15 minutes, and checking the signature each time was 7% of an autosave's CPU (jose's
 * Web Crypto verify also costs a thread hop). Only what does not depend on the time is remembered (the
 * times are checked on every use); the family is still looked up on every request. Oldest forgotten
 * first beyond VERIFIED_TOKENS_MAX.
 */
const verifiedClaims = new Map<string, Readonly<Record<string, unknown>>>();
const VERIFIED_TOKENS_MAX = 10_000;

/** A token checked by jose at `now`; its claims, frozen and remembered, or null. */
async function checkAccessToken(token: string, now: Date): Promise<Readonly<Record<string, unknown>> | null> {
  let claims: Readonly<Record<string, unknown>>;
  try {
    const { payload } = await jwtVerify(token, await key(), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      currentDate: now,
      requiredClaims: ["exp", "sub", FAMILY_CLAIM],
    });
    claims = Object.freeze({ ...payload });
  } catch {
    return null;
  }
  if (verifiedClaims.size >= VERIFIED_TOKENS_MAX) verifiedClaims.delete(verifiedClaims.keys().next().value!);
  verifiedClaims.set(token, claims);
  return claims;
}

/**
 * The user id inside a valid, unexpired access token whose family is still live (and whose user
 * still exists), or null. `exp`, `sub` and the family claim are required: a token signed without an
 * expiry would otherwise never expire.
 */
export async function verifyAccessToken(token: string, now = new Date()): Promise<string | null> {
  return (await userOfAccessToken(token, now))?.id ?? null;
}

/**
 * The user an access token names, while its family is live: verifyAccessToken and the user's row in
 * one query (every authenticated request asks this; two queries were 4% of an API answer's CPU).
 * null for a bad, expired or revoked token, or a user who no longer exists.
 */
export async function userOfAccessToken(token: string, now = new Date()): Promise<User | null> {
  return (await sessionOfAccessToken(token, now))?.user ?? null;
}

/**
 * As userOfAccessToken, with the session (the token's family id) it belongs to, whose "last used"
 * moves (at most once a minute, app/models/accounts/sessions.server.ts).
 */
export async function sessionOfAccessToken(
  token: string,
  now = new Date(),
): Promise<{ user: User; sessionId: string } | null> {
  const payload = await verifyAccessTokenSignature(token, now);
  const family = payload?.[FAMILY_CLAIM];
  if (!payload || typeof payload.sub !== "string" || typeof family !== "string") return null;
  const row = await liveFamilyUser.first(db, { familyId: family, userId: payload.sub, now: nowIso(now) });
  if (!row) return null;
  await touchSession(family, now);
  return { user: { id: row.id, email: row.email, language: row.language }, sessionId: family };
}

const liveFamilyUser = compileOnce((database: Kysely<Database>, p: { familyId: string; userId: string; now: string }) =>
  database
    .selectFrom("users")
    .select(["users.id", "users.email", "users.language"])
    .where("users.id", "=", p.userId)
    // A disabled person's tokens stop on their next request, on every instance (`npm run admin -- disable`).
    .where("users.disabled_at", "is", null)
    // The session itself: ended by every revoke (revoked_at), whatever its tokens were doing meanwhile.
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("sessions")
          .select("sessions.id")
          .where("sessions.id", "=", p.familyId)
          .where("sessions.user_id", "=", p.userId)
          .where("sessions.revoked_at", "is", null),
      ),
    )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("refresh_tokens")
          .select("refresh_tokens.id")
          .where("refresh_tokens.family_id", "=", p.familyId)
          .where("refresh_tokens.user_id", "=", p.userId)
          .where("refresh_tokens.revoked_at", "is", null)
          .where("refresh_tokens.expires_at", ">", p.now),
      ),
    ),
);

/**
 * Logout by an access token alone (an API client that sends no refresh token): the family it was
 * issued with stops working, its refresh token included. Scoped by the token's own user. A token
 * that is not valid revokes nothing.
 */
export async function revokeAccessTokenFamily(accessToken: string, now = new Date()) {
  const payload = await verifyAccessTokenSignature(accessToken, now);
  const family = payload?.[FAMILY_CLAIM];
  if (!payload || typeof payload.sub !== "string" || typeof family !== "string") return;
  await endSessionOfFamily(family, now, payload.sub);
}
