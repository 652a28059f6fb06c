import { EncryptJWT, jwtDecrypt } from "jose";
import * as openid from "openid-client";
import { redirect, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { env } from "~/lib/settings/env.server";
import { keys } from "~/lib/settings/keys.server";
import { clientAddress } from "~/lib/http/client-address.server";
import { publicOrigin } from "~/lib/http/public-origin.server";
import { createSignedCookie, hostCookieName } from "~/lib/screens/signed-cookie.server";
import { redirectWithError } from "~/lib/screens/toast.server";
import {
  ACCOUNT_DISABLED_MESSAGE,
  busyMessage,
  registrationThrottledMessage,
} from "~/models/accounts/credentials.server";
import { accountForVerifiedEmail } from "~/models/accounts/sso.server";
import { issueTokenPair } from "~/models/accounts/token-pair.server";
import { emailSchema } from "~/common/account-rules";
import { safeRedirectPath } from "~/common/safe-redirect";
import { commitTokenPair } from "./session.server";

/**
 * Single sign-on with an OpenID provider (decision 0048): the authorization code flow with
 * PKCE (S256), state and nonce, through openid-client. `/auth/oidc` starts it (a plain link on the Login
 * screen, no JavaScript), `/auth/oidc/callback` finishes it: the provider's verified email names the
 * account (or a new one when registration is open) and the browser gets the same session cookie as a
 * password login. Whatever goes wrong ends on /login with a message, never a 500.
 *
 * The flow's secrets (state, nonce, PKCE verifier) and where to go afterwards live only in an
 * encrypted (A256GCM, key derived from SESSION_SECRET), HttpOnly, SameSite=Lax cookie that expires in
 * 10 minutes (`__Host-oidc` when cookies are Secure): no page script, URL or log sees them, and the
 * provider's redirect back (a top-level GET) carries it.
 */

export const OIDC_START_PATH = "/auth/oidc";
export const OIDC_CALLBACK_PATH = "/auth/oidc/callback";
const SCOPE = "openid email profile";
const FLOW_SECONDS = 600;
/** The provider's metadata is fetched again after this long (and after any failure). */
const DISCOVERY_TTL_MS = 60 * 60_000;
/** Seconds each call to the provider may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** Longer than any invitation code; a longer `invite` is not one and is not carried. */
const INVITE_MAX_LENGTH = 128;

type Context = Readonly<RouterContextProvider>;
type OidcSettings = NonNullable<typeof env.oidc>;

const flowCookie = createSignedCookie(hostCookieName("oidc", env.cookieSecure), {
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
type Flow = z.infer<typeof flowSchema>;

/**
 * What the Login screen shows beside its form: "Sign in with {name}", a link; null without SSO. The
 * Register screen's carries the invitation it was opened with, so a newcomer joins through the provider.
 */
export function ssoLink(redirectTo: string, invite: string | null = null): { name: string; href: string } | null {
  if (!env.oidc) return null;
  const target = safeRedirectPath(redirectTo);
  const query = new URLSearchParams();
  if (target !== "/dashboard") query.set("redirectTo", target);
  if (invite) query.set("invite", invite);
  const search = query.size > 0 ? `?${query}` : "";
  return { name: env.oidc.name, href: `${OIDC_START_PATH}${search}` };
}

/** GET /auth/oidc[?redirectTo=/path][&invite=CODE]: off to the provider, with the flow's secrets in the sealed cookie. */
export async function startOidcSignIn(request: Request): Promise<Response> {
  const oidc = requireOidc();
  const params = new URL(request.url).searchParams;
  const redirectTo = safeRedirectPath(params.get("redirectTo"));
  const invite = params.get("invite")?.trim() ?? "";
  let config: openid.Configuration;
  try {
    config = await providerConfiguration(oidc);
  } catch (error) {
    logFailure("the provider's metadata could not be read", error);
    return redirectWithError(loginPath(redirectTo), unavailableMessage(oidc.name));
  }
  const verifier = openid.randomPKCECodeVerifier();
  const flow: Flow = {
    state: openid.randomState(),
    nonce: openid.randomNonce(),
    verifier,
    redirectUri: `${publicOrigin(request)}${OIDC_CALLBACK_PATH}`,
    redirectTo,
    ...(invite && invite.length <= INVITE_MAX_LENGTH ? { invite } : {}),
  };
  const authorizationUrl = openid.buildAuthorizationUrl(config, {
    redirect_uri: flow.redirectUri,
    scope: SCOPE,
    code_challenge: await openid.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
  });
  return redirect(authorizationUrl.href, {
    headers: { "Set-Cookie": await flowCookie.serialize(await sealFlow(flow)), "Cache-Control": "no-store" },
  });
}

/** GET /auth/oidc/callback?code=…&state=…: the provider's answer; signs in or explains on /login. */
export async function finishOidcSignIn(request: Request, context: Context): Promise<Response> {
  const oidc = requireOidc();
  const clearFlow = await flowCookie.serialize("", { maxAge: 0 });
  const flow = await openFlow(request);
  const refuse = (message: string) =>
    redirectWithError(loginPath(flow?.redirectTo), message, { headers: { "Set-Cookie": clearFlow } });
  if (!flow)
    return refuse(`That sign-in with ${oidc.name} expired or was started in another browser. Please try again.`);

  const params = new URL(request.url).searchParams;
  if (params.get("state") !== flow.state)
    return refuse(`That sign-in with ${oidc.name} was not started here, or a newer one replaced it. Please try again.`);
  const providerError = params.get("error");
  if (providerError !== null) return refuse(providerErrorMessage(oidc.name, providerError));
  if (!params.get("code")) return refuse(`${oidc.name} answered without a sign-in code. Please try again.`);

  let identity: { email: unknown; emailVerified: unknown };
  try {
    identity = await identityOf(await providerConfiguration(oidc), flow, params);
  } catch (error) {
    if (error instanceof openid.AuthorizationResponseError) return refuse(providerErrorMessage(oidc.name, error.error));
    logFailure("the sign-in could not be completed", error);
    return refuse(`Sign-in with ${oidc.name} failed. Please try again.`);
  }

  if (typeof identity.email !== "string" || identity.email.trim() === "") {
    return refuse(
      `${oidc.name} did not share your email address, which this studio needs to know you. Ask its administrator to allow the "email" scope.`,
    );
  }
  const email = emailSchema.safeParse(identity.email);
  if (!email.success) return refuse(`${oidc.name} gave an email address this studio cannot use.`);
  // Only the provider's word that this person owns the address may name an account (decision 0048).
  if (identity.emailVerified !== true && identity.emailVerified !== "true") {
    return refuse(
      `${oidc.name} has not verified your email address ${email.data}. Verify it there, then sign in again.`,
    );
  }

  const account = await accountForVerifiedEmail(
    email.data,
    clientAddress(context),
    env.registration,
    flow.invite ?? null,
  );
  if (!account.ok) {
    if (account.reason === "disabled") return refuse(ACCOUNT_DISABLED_MESSAGE);
    if (account.reason === "invitation") {
      return refuse(
        `No account uses ${email.data}, and the invitation link you began with has been used or has expired. Ask the person who runs this studio for a new one.`,
      );
    }
    if (account.reason !== "unknown") {
      return refuse(
        account.reason === "throttled"
          ? registrationThrottledMessage(account.retryAfterSeconds)
          : busyMessage(account.retryAfterSeconds),
      );
    }
    return refuse(
      account.mode === "invite"
        ? `No account uses ${email.data}. New people join this studio by invitation: open your invitation link, then sign up with ${oidc.name} there.`
        : `No account uses ${email.data}, and registration on this studio is closed.`,
    );
  }
  // The same session as a password login (routes/login.tsx): a fresh token pair in the session cookie.
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append(
    "Set-Cookie",
    await commitTokenPair(
      request,
      await issueTokenPair(account.user.id, new Date(), request.headers.get("User-Agent")),
    ),
  );
  headers.append("Set-Cookie", clearFlow);
  return redirect(flow.redirectTo, { headers });
}

/** The code grant (openid-client checks state, PKCE, nonce, issuer and the ID token), then the email claims. */
async function identityOf(config: openid.Configuration, flow: Flow, params: URLSearchParams) {
  // The URL the provider sent the browser to, on the redirect URI it was given (not what a proxy made of it).
  const currentUrl = new URL(flow.redirectUri);
  currentUrl.search = params.toString();
  const tokens = await openid.authorizationCodeGrant(config, currentUrl, {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error("the provider answered without an ID token");
  let email = claims.email;
  let emailVerified = claims.email_verified;
  // Many providers (and oidc-provider by default) keep the email claims for the userinfo endpoint.
  if ((email === undefined || emailVerified === undefined) && config.serverMetadata().userinfo_endpoint) {
    const info = await openid.fetchUserInfo(config, tokens.access_token, claims.sub);
    email ??= info.email;
    emailVerified ??= info.email_verified;
  }
  return { email, emailVerified };
}

let discovered: { config: Promise<openid.Configuration>; at: number } | null = null;

/** The provider's metadata (OpenID Connect discovery), kept for an hour; a failure is not kept. */
function providerConfiguration(oidc: OidcSettings): Promise<openid.Configuration> {
  if (discovered && Date.now() - discovered.at < DISCOVERY_TTL_MS) return discovered.config;
  const issuer = new URL(oidc.issuer);
  const config = openid
    .discovery(issuer, oidc.clientId, undefined, openid.ClientSecretBasic(oidc.clientSecret), {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      // Plain http is accepted for an issuer on this machine only (the settings refuse it elsewhere).
      execute: issuer.protocol === "http:" ? [openid.allowInsecureRequests] : [],
    })
    .catch((error: unknown) => {
      if (discovered?.config === config) discovered = null;
      throw error;
    });
  discovered = { config, at: Date.now() };
  return config;
}

function sealingKey(): Uint8Array {
  return keys.oidcFlow();
}

async function sealFlow(flow: Flow): Promise<string> {
  return new EncryptJWT({ ...flow })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt()
    .setExpirationTime(`${FLOW_SECONDS}s`)
    .encrypt(sealingKey());
}

/** The flow this browser started, or null (no cookie, expired, tampered with, sealed with another secret). */
async function openFlow(request: Request): Promise<Flow | null> {
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

function requireOidc(): OidcSettings {
  if (!env.oidc)
    throw new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return env.oidc;
}

function loginPath(redirectTo: string | undefined): string {
  const target = safeRedirectPath(redirectTo);
  return target === "/dashboard" ? "/login" : `/login?${new URLSearchParams({ redirectTo: target })}`;
}

function unavailableMessage(name: string) {
  return `Sign-in with ${name} is not available right now. Please try again later, or use your password.`;
}

/** The provider's `error` (RFC 6749 §4.1.2.1), by its code only: its description is the provider's text, not ours. */
function providerErrorMessage(name: string, error: string): string {
  if (error === "access_denied") return `Sign-in with ${name} was cancelled.`;
  if (error === "temporarily_unavailable" || error === "server_error") return unavailableMessage(name);
  const code = /^[\w.-]{1,64}$/.test(error) ? ` (${error})` : "";
  return `${name} refused the sign-in${code}. Please try again, or ask the studio's administrator.`;
}

function logFailure(what: string, error: unknown) {
  const detail =
    error instanceof Error
      ? `${error.name}: ${error.message}${"code" in error ? ` [${String(error.code)}]` : ""}`
      : String(error);
  console.warn(`[studio] single sign-on: ${what}: ${detail}`);
}
