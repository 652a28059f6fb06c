import { EncryptJWT, jwtDecrypt } from "jose";
import { z } from "zod";
import { safeRedirectPath } from "~/common/safe-redirect";
import { createSignedCookie, hostCookieName } from "~/lib/screens/signed-cookie.server";
import { env } from "~/lib/settings/env.server";
import { keys } from "~/lib/settings/keys.server";

/**
 * The single sign-on flow's secrets (state, nonce, PKCE verifier) and where to go afterwards, sealed
 * in an encrypted (A256GCM, key derived from SESSION_SECRET), HttpOnly, SameSite=Lax cookie that
 * expires in 10 minutes (app/auth/oidc.server.ts starts and finishes the flow; decision 0048).
 */
const FLOW_SECONDS = 600;
/** Longer than any invitation code; a longer `invite` is not one and is not carried. */
export const INVITE_MAX_LENGTH = 128;

export const flowCookie = createSignedCookie(hostCookieName("oidc", env.cookieSecure), {
  httpOnly: true,
  secure: env.cookieSecure,
  sameSite: "lax",
  path: "/",
  maxAge: FLOW_SECONDS,
});

const flowSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  verifier: z.string().min(43),
  redirectUri: z.url(),
  redirectTo: z.string(),
  /** The invitation the sign-on began from (the Register screen's `?invite=`), claimed if it makes an account. */
  invite: z.string().max(INVITE_MAX_LENGTH).optional(),
});
export type Flow = z.infer<typeof flowSchema>;

function sealingKey(): Uint8Array {
  return keys.oidcFlow();
}

export async function sealFlow(flow: Flow): Promise<string> {
  return new EncryptJWT({ ...flow })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt()
    .setExpirationTime(`${FLOW_SECONDS}s`)
    .encrypt(sealingKey());
}

/** The flow this browser started, or null (no cookie, expired, tampered with, sealed with another secret). */
export async function openFlow(request: Request): Promise<Flow | null> {
  const sealed: unknown = await flowCookie.parse(request.headers.get("Cookie"));
  if (typeof sealed !== "string" || sealed === "") return null;
  try {
    const { payload } = await jwtDecrypt(sealed, sealingKey(), {
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256GCM"],
    });
    const flow = flowSchema.safeParse(payload);
    return flow.success ? { ...flow.data, redirectTo: safeRedirectPath(flow.data.redirectTo) } : null;
  } catch {
    return null;
  }
}
