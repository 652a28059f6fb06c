import * as openid from "openid-client";
import { redirect, type RouterContextProvider } from "react-router";
import { env } from "~/lib/settings/env.server";
import { clientAddress } from "~/lib/http/client-address.server";
import { publicOrigin } from "~/lib/http/public-origin.server";
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
import { accountText } from "~/common/account-rules";
import type { Translator } from "~/common/i18n/translate";
import { commitTokenPair } from "./session.server";
import { screenTranslator } from "./screen-language.server";
import { flowCookie, INVITE_MAX_LENGTH, openFlow, sealFlow, type Flow } from "./oidc-flow.server";

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
/** The provider's metadata is fetched again after this long (and after any failure). */
const DISCOVERY_TTL_MS = 60 * 60_000;
/** Seconds each call to the provider may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;

type Context = Readonly<RouterContextProvider>;
type OidcSettings = NonNullable<typeof env.oidc>;

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
export async function startOidcSignIn(request: Request, context: Context): Promise<Response> {
  const oidc = requireOidc();
  const params = new URL(request.url).searchParams;
  const redirectTo = safeRedirectPath(params.get("redirectTo"));
  const invite = params.get("invite")?.trim() ?? "";
  let config: openid.Configuration;
  try {
    config = await providerConfiguration(oidc);
  } catch (error) {
    logFailure("the provider's metadata could not be read", error);
    const { t } = await screenTranslator(context, request);
    return redirectWithError(loginPath(redirectTo), unavailableMessage(t, oidc.name));
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
  // The message is said on /login, in the screen's language.
  const { t } = await screenTranslator(context, request);
  const name = oidc.name;
  const refuse = (message: string) =>
    redirectWithError(loginPath(flow?.redirectTo), message, { headers: { "Set-Cookie": clearFlow } });
  if (!flow)
    return refuse(
      t("That sign-in with {{name}} expired or was started in another browser. Please try again.", { name }),
    );

  const params = new URL(request.url).searchParams;
  if (params.get("state") !== flow.state)
    return refuse(
      t("That sign-in with {{name}} was not started here, or a newer one replaced it. Please try again.", { name }),
    );
  const providerError = params.get("error");
  if (providerError !== null) return refuse(providerErrorMessage(t, name, providerError));
  if (!params.get("code")) return refuse(t("{{name}} answered without a sign-in code. Please try again.", { name }));

  let identity: { email: unknown; emailVerified: unknown };
  try {
    identity = await identityOf(await providerConfiguration(oidc), flow, params);
  } catch (error) {
    if (error instanceof openid.AuthorizationResponseError) return refuse(providerErrorMessage(t, name, error.error));
    logFailure("the sign-in could not be completed", error);
    return refuse(t("Sign-in with {{name}} failed. Please try again.", { name }));
  }

  if (typeof identity.email !== "string" || identity.email.trim() === "") {
    return refuse(
      t(
        '{{name}} did not share your email address, which this studio needs to know you. Ask its administrator to allow the "email" scope.',
        { name },
      ),
    );
  }
  const email = emailSchema.safeParse(identity.email);
  if (!email.success) return refuse(t("{{name}} gave an email address this studio cannot use.", { name }));
  // Only the provider's word that this person owns the address may name an account (decision 0048).
  if (identity.emailVerified !== true && identity.emailVerified !== "true") {
    return refuse(
      t("{{name}} has not verified your email address {{email}}. Verify it there, then sign in again.", {
        name,
        email: email.data,
      }),
    );
  }

  const account = await accountForVerifiedEmail(
    email.data,
    clientAddress(context),
    env.registration,
    flow.invite ?? null,
  );
  if (!account.ok) {
    if (account.reason === "disabled") return refuse(t(ACCOUNT_DISABLED_MESSAGE));
    if (account.reason === "invitation") {
      return refuse(
        t(
          "No account uses {{email}}, and the invitation link you began with has been used or has expired. Ask the person who runs this studio for a new one.",
          { email: email.data },
        ),
      );
    }
    if (account.reason !== "unknown") {
      return refuse(
        accountText(
          t,
          account.reason === "throttled"
            ? registrationThrottledMessage(account.retryAfterSeconds)
            : busyMessage(account.retryAfterSeconds),
        ),
      );
    }
    return refuse(
      account.mode === "invite"
        ? t(
            "No account uses {{email}}. New people join this studio by invitation: open your invitation link, then sign up with {{name}} there.",
            { email: email.data, name },
          )
        : t("No account uses {{email}}, and registration on this studio is closed.", { email: email.data }),
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

function requireOidc(): OidcSettings {
  if (!env.oidc)
    throw new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return env.oidc;
}

function loginPath(redirectTo: string | undefined): string {
  const target = safeRedirectPath(redirectTo);
  return target === "/dashboard" ? "/login" : `/login?${new URLSearchParams({ redirectTo: target })}`;
}

function unavailableMessage(t: Translator["t"], name: string) {
  return t("Sign-in with {{name}} is not available right now. Please try again later, or use your password.", { name });
}

/** The provider's `error` (RFC 6749 §4.1.2.1), by its code only: its description is the provider's text, not ours. */
function providerErrorMessage(t: Translator["t"], name: string, error: string): string {
  if (error === "access_denied") return t("Sign-in with {{name}} was cancelled.", { name });
  if (error === "temporarily_unavailable" || error === "server_error") return unavailableMessage(t, name);
  if (/^[\w.-]{1,64}$/.test(error))
    return t("{{name}} refused the sign-in ({{code}}). Please try again, or ask the studio's administrator.", {
      name,
      code: error,
    });
  return t("{{name}} refused the sign-in. Please try again, or ask the studio's administrator.", { name });
}

function logFailure(what: string, error: unknown) {
  const detail =
    error instanceof Error
      ? `${error.name}: ${error.message}${"code" in error ? ` [${String(error.code)}]` : ""}`
      : String(error);
  console.warn(`[studio] single sign-on: ${what}: ${detail}`);
}
