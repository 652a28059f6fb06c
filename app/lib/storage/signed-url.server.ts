import { createHmac, timingSafeEqual } from "node:crypto";
import { keys } from "~/lib/settings/keys.server";

/**
 * Signed media URLs (docs/api.md#every-call GET /videos/signed_url): a link that plays one file without a session
 * for a limited time. The HMAC-SHA256 covers the owner, the file id and the expiry, so none of the
 * three can be changed; the key is derived from SESSION_SECRET for this one purpose.
 */
export const SIGNED_URL_SECONDS = 60 * 60;

const key = () => keys.signedUrl();

const sign = (userId: string, fileId: string, expires: number) =>
  createHmac("sha256", key()).update(`${userId}\n${fileId}\n${expires}`).digest("base64url");

export interface SignedParams {
  user: string;
  expires: string;
  signature: string;
}

/** The query of a signed link to `fileId`, valid for `seconds` from `now` (ms). */
export function signMediaAccess(userId: string, fileId: string, now = Date.now(), seconds = SIGNED_URL_SECONDS) {
  const expires = Math.floor(now / 1000) + seconds;
  return {
    user: userId,
    expires: String(expires),
    signature: sign(userId, fileId, expires),
    expiresAt: new Date(expires * 1000),
  };
}

export type SignedAccess = { ok: true; userId: string; expires: number } | { ok: false; reason: "invalid" | "expired" };

/** Checks a signed link's parameters for `fileId`. A bad signature is "invalid" even when also expired. */
export function verifyMediaAccess(fileId: string, params: Partial<SignedParams>, now = Date.now()): SignedAccess {
  const { user, expires, signature } = params;
  if (!user || !expires || !signature || !/^\d{1,12}$/.test(expires)) return { ok: false, reason: "invalid" };
  const expected = Buffer.from(sign(user, fileId, Number(expires)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
  if (Number(expires) * 1000 <= now) return { ok: false, reason: "expired" };
  return { ok: true, userId: user, expires: Number(expires) };
}
