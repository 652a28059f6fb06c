import { createHmac, timingSafeEqual } from "node:crypto";
import { keys } from "./settings/keys.server";

/**
 * A view grant: what a shared page puts in the links to its files (`?g=<expiry>.<signature>`), so the
 * person who just opened the page (and was counted as one view) can load its image or play its video,
 * with byte ranges, even when that view was the link's last, while the file links cannot be passed round
 * to see the file forever without opening the page (docs/decisions/0070-the-shared-page.md). The
 * HMAC-SHA256 covers the share's id and the expiry; the key is derived for this one use.
 */
export const SHARE_GRANT_SECONDS = 6 * 60 * 60;

const sign = (shareId: string, expires: number) =>
  createHmac("sha256", keys.shareGrant()).update(`${shareId}\n${expires}`).digest("base64url");

/**
 * A grant for the share `shareId`, valid for SHARE_GRANT_SECONDS from `now`, or until the link's own
 * expiry when that comes sooner.
 */
export function grantShareView(shareId: string, linkExpiresAt: string | null, now = Date.now()): string {
  let expires = Math.floor(now / 1000) + SHARE_GRANT_SECONDS;
  if (linkExpiresAt) expires = Math.min(expires, Math.floor(Date.parse(linkExpiresAt) / 1000));
  return `${expires}.${sign(shareId, expires)}`;
}

/** Whether `grant` (the `g` parameter, or null) was made for `shareId` and has not run out. */
export function shareGrantIsValid(shareId: string, grant: string | null, now = Date.now()): boolean {
  const match = grant ? /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(grant) : null;
  if (!match) return false;
  const expires = Number(match[1]);
  const expected = Buffer.from(sign(shareId, expires));
  const given = Buffer.from(match[2]);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  return expires * 1000 > now;
}
