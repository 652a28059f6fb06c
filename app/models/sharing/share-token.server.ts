import { createCipheriv, createDecipheriv } from "node:crypto";
import { randomBytes } from "node:crypto";
import { sha256 } from "~/lib/db/ids.server";
import { keys } from "~/lib/settings/keys.server";

/*
 * A share link's token (docs/decisions/0069): 32 random bytes, base64url (43 characters, 256 bits). The
 * row is found by the token's SHA-256 only, so whoever reads the database alone cannot open a link by
 * its hash. The token is also kept sealed, so its owner's list can show and copy the link again:
 * AES-256-GCM under keys.shareToken() (HKDF of the session secret), a fresh 12-byte IV per seal and the
 * row's id as additional data (a sealed token copied into another row does not open). Format:
 * v1.<iv>.<ciphertext>.<tag>, base64url.
 */

/** A token's shape: what newShareToken makes; anything else is no link at all. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newShareToken = () => randomBytes(32).toString("base64url");

export const isShareTokenShape = (token: unknown): token is string =>
  typeof token === "string" && TOKEN_PATTERN.test(token);

export const shareTokenHash = (token: string) => sha256(token);

export function sealShareToken(rowId: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys.shareToken(), iv);
  cipher.setAAD(Buffer.from(rowId, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return ["v1", ...[iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString("base64url"))].join(".");
}

/** The sealed token, or null when it does not open (another secret, another row, tampered, unknown format). */
export function openShareToken(rowId: string, sealed: string): string | null {
  const [version, iv, ciphertext, tag, ...rest] = sealed.split(".");
  if (version !== "v1" || !iv || !ciphertext || !tag || rest.length > 0) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keys.shareToken(), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(rowId, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
