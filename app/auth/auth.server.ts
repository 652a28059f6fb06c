import { redirect, type RouterContextProvider } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import {
  ACCOUNT_DISABLED_MESSAGE,
  busyMessage,
  loginWithPassword,
  throttledMessage,
} from "~/models/accounts/credentials.server";
import { loginSchema } from "~/common/account-rules";
import { sessionOfAccessToken } from "~/models/accounts/access-token.server";
import { isApiToken, userOfApiToken } from "~/models/accounts/api-token.server";
import type { User } from "~/models/accounts/user.server";
import { apiError } from "~/lib/http/responder.server";
import { DomainError } from "~/lib/domain-error";
import { clientAddress } from "~/lib/http/client-address.server";
import { firstIssue } from "~/lib/screens/validation.server";
import { redirectWithError } from "~/lib/screens/toast.server";
import { msg } from "~/common/i18n/translate";
import { requestSessionContext, requestUrlContext, signInRequiredContext } from "./session.server";
import { screenTranslator } from "./screen-language.server";

export const LOGIN_FAILED_MESSAGE = msg("Login failed. Please check your credentials.");

/** What the login form shows when authentication fails, with the status to answer. */
export class LoginError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** Seconds to wait before trying again (429, 503): the answer's Retry-After. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/**
 * The login form's request -> its router context, while the form strategy runs: remix-auth hands
 * the strategy only the request, and the client's address (the login budget's key) is in the context.
 */
const loginContexts = new WeakMap<Request, Context>();

/** The login screen's form strategy (remix-auth v4: it returns the user; we commit the session ourselves). */
const authenticator = new Authenticator<User>();
authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const parsed = loginSchema.safeParse({ email: form.get("email") ?? "", password: form.get("password") ?? "" });
    if (!parsed.success) throw new LoginError(firstIssue(parsed.error), 400);
    const result = await loginWithPassword(parsed.data.email, parsed.data.password, loginAddress(request));
    if (result.ok) return result.user;
    if (result.reason === "throttled")
      throw new LoginError(throttledMessage(result.retryAfterSeconds), 429, result.retryAfterSeconds);
    if (result.reason === "busy")
      throw new LoginError(busyMessage(result.retryAfterSeconds), 503, result.retryAfterSeconds);
    if (result.reason === "disabled") throw new LoginError(ACCOUNT_DISABLED_MESSAGE, 403);
    throw new LoginError(LOGIN_FAILED_MESSAGE, 401);
  }),
  "form",
);

type Context = Readonly<RouterContextProvider>;

function loginAddress(request: Request): string {
  const context = loginContexts.get(request);
  return context ? clientAddress(context) : "unknown";
}

/** Signs in with the login form's email and password (the form strategy); throws LoginError. */
export async function authenticateLoginForm(request: Request, context: Context): Promise<User> {
  loginContexts.set(request, context);
  try {
    // The strategy itself, given this very request: Authenticator.authenticate hands strategies a copy
    // (`new Request(url, request)`), which the map does not know, so every form login was counted
    // against one address, "unknown" (and, once budgets refused before the hash, locked out together).
    const strategy = authenticator.get<FormStrategy<User>>("form");
    if (!strategy) throw new ReferenceError("the form strategy is not registered");
    return await strategy.authenticate(request);
  } finally {
    loginContexts.delete(request);
  }
}

export function currentUser(context: Context): User | null {
  return context.get(requestSessionContext).user;
}

function loginUrl(context: Context, request: Request): string {
  const url = context.get(requestUrlContext) ?? new URL(request.url);
  const redirectTo = `${url.pathname}${url.search}`;
  return `/login?${new URLSearchParams({ redirectTo })}`;
}

/** Screens: no session -> /login, remembering where the person was going. */
export function requireUser(context: Context, request: Request): User {
  context.set(signInRequiredContext, true);
  const user = currentUser(context);
  if (user) return user;
  throw redirect(loginUrl(context, request));
}

/**
 * As requireUser, and the login screen tells the person why they are there (e.g. docs/screens.md#roles-and-permissions
 * "Please log in again."). `message` is an English catalogue key (msg()): it is said in the screen's language.
 */
export async function requireUserOrExplain(context: Context, request: Request, message: string): Promise<User> {
  context.set(signInRequiredContext, true);
  const user = currentUser(context);
  if (user) return user;
  const { t } = await screenTranslator(context, request);
  throw await redirectWithError(loginUrl(context, request), t(message));
}

/** The API: `Authorization: Bearer <access token or personal API token>` or the session cookie; otherwise 401. */
export async function requireApiUser(context: Context, request: Request): Promise<User> {
  return (await requireApiCaller(context, request)).user;
}

/**
 * How a request was authenticated: a signed-in session (the cookie, or a bearer access token from a
 * login, both a refresh-token family) or a personal API token (`cas_…`, made for scripts).
 */
export type CredentialKind = "session" | "personal_token";

/** Who calls the API, and through which session (null for a personal API token): the account calls keep "this" session. */
export interface ApiCaller {
  user: User;
  sessionId: string | null;
  credential: CredentialKind;
}

/** A caller signed in through a session: only such a caller may manage the account's credentials. */
export interface SessionCaller extends ApiCaller {
  sessionId: string;
  credential: "session";
}

export const PERSONAL_TOKEN_CANNOT_MANAGE_ACCOUNT =
  "Personal API tokens cannot manage the account: sign in to do this.";
/** The share links' calls (make, list, end): a link outlives the credential that made it (docs/decisions/0090). */
export const PERSONAL_TOKEN_CANNOT_MANAGE_SHARES =
  "Personal API tokens cannot make, list or end share links: sign in to do this.";

/** As requireApiUser, with the caller's session. */
export async function requireApiCaller(context: Context, request: Request): Promise<ApiCaller> {
  const authorization = request.headers.get("Authorization");
  if (authorization) return callerOfAuthorization(authorization);
  const { user, sessionId } = context.get(requestSessionContext);
  if (!user) throw apiError(401, "Not authenticated", { "WWW-Authenticate": "Bearer" });
  return { user, sessionId: sessionId ?? null, credential: "session" };
}

/**
 * The account's credential calls (make or revoke tokens, list or end sessions, change the password)
 * and the share links' (make, list, end): a signed-in session only (docs/decisions/0051, 0090). A
 * personal API token is for scripts: a leaked one must not lock its owner out, nor make links that
 * outlive it, so it gets 403 with `detail` here, the one place this is decided. A login's bearer
 * access token is a session.
 */
export async function requireSignedInCaller(
  context: Context,
  request: Request,
  detail: string = PERSONAL_TOKEN_CANNOT_MANAGE_ACCOUNT,
): Promise<SessionCaller> {
  const caller = await requireApiCaller(context, request);
  if (caller.credential !== "session" || caller.sessionId === null) throw new DomainError(403, detail);
  return { ...caller, sessionId: caller.sessionId, credential: "session" };
}

/** The screens' signed-in session (its token family), or null. */
export function currentSessionId(context: Context): string | null {
  return context.get(requestSessionContext).sessionId ?? null;
}

/** The person an `Authorization` header names by a live access token; 401 otherwise (the API's answer). */
export async function userOfAuthorization(authorization: string): Promise<User> {
  return (await callerOfAuthorization(authorization)).user;
}

/** A live access token (its session) or a personal API token (`cas_…`, no session); 401 otherwise. */
async function callerOfAuthorization(authorization: string): Promise<ApiCaller> {
  const token = bearerTokenOf(authorization);
  if (token && isApiToken(token)) {
    const user = await userOfApiToken(token);
    if (user) return { user, sessionId: null, credential: "personal_token" };
  } else {
    const session = token ? await sessionOfAccessToken(token) : null;
    if (session) return { ...session, credential: "session" };
  }
  throw apiError(401, "Invalid or expired access token", { "WWW-Authenticate": "Bearer" });
}

/** The token of an `Authorization: Bearer <token>` header, or null for any other header. */
export function bearerTokenOf(authorization: string): string | null {
  return /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1] ?? null;
}
