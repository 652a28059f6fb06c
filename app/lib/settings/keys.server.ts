import { createHmac, hkdfSync } from "node:crypto";
import { sessionSecret } from "./session-secret.server";

/**
 * Every key made from the session secret, in one place: each use has its own, so a value signed for one
 * use is never accepted by another. The derivations are the ones each use had before they were gathered
 * here, byte for byte, so cookies, tokens, signed links and sealed rows made earlier stay valid. Each key
 * is made on first use and kept.
 */
let accessToken: Uint8Array<ArrayBuffer> | undefined;
let signedUrl: Buffer | undefined;
let oidcFlow: Uint8Array | undefined;
let refreshSuccessor: Buffer | undefined;
let shareToken: Buffer | undefined;
let shareGrant: Buffer | undefined;

export const keys = {
  /**
   * The secrets React Router's cookie format signs with (HMAC-SHA256 of each value; the first signs, any
   * verifies): the session, toast and preferences cookies (app/lib/screens/signed-cookie.server.ts).
   */
  cookieSecrets: (): string[] => [sessionSecret()],
  /** HS256 key of the access tokens (JWT; app/models/accounts/token-pair.server.ts). */
  accessToken: (): Uint8Array<ArrayBuffer> =>
    (accessToken ??= new TextEncoder().encode(`access-token:${sessionSecret()}`)),
  /** HMAC-SHA256 key of the signed media links (app/lib/storage/signed-url.server.ts). */
  signedUrl: (): Buffer => (signedUrl ??= createHmac("sha256", sessionSecret()).update("signed-media-url/v1").digest()),
  /** AES key of the sealed single sign-on flow cookie (app/auth/oidc.server.ts), HKDF-SHA256. */
  oidcFlow: (): Uint8Array =>
    (oidcFlow ??= new Uint8Array(hkdfSync("sha256", sessionSecret(), "", "creative-ai-studio oidc flow", 32))),
  /** AES-256-GCM key sealing a spent refresh token's successor pair in its row (app/models/accounts/token-pair.server.ts), HKDF-SHA256. */
  refreshSuccessor: (): Buffer =>
    (refreshSuccessor ??= Buffer.from(
      hkdfSync("sha256", sessionSecret(), "creative-ai-studio", "refresh-token-successor/v1", 32),
    )),
  /** AES-256-GCM key sealing a share link's token in its row (app/models/sharing/share-token.server.ts), HKDF-SHA256. */
  shareToken: (): Buffer =>
    (shareToken ??= Buffer.from(hkdfSync("sha256", sessionSecret(), "creative-ai-studio", "share-token/v1", 32))),
  /** HMAC-SHA256 key of the view grants in a shared page's file links (app/lib/share-grant.server.ts), HKDF-SHA256. */
  shareGrant: (): Buffer =>
    (shareGrant ??= Buffer.from(hkdfSync("sha256", sessionSecret(), "creative-ai-studio", "share-grant/v1", 32))),
};
