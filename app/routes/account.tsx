import { useEffect, useRef, useState } from "react";
import { data, useActionData, useFetcher } from "react-router";
import { withFailureFallback } from "~/browser/network-safe";
import { EnhancedField } from "~/components/enhanced-field";
import { FlashMessage } from "~/components/flash-message";
import { Icon } from "~/components/icon";
import { PageHeader } from "~/components/page-header";
import { StorageMeter } from "~/components/storage-meter";
import { useHydrated } from "~/components/use-hydrated";
import { currentSessionId, requireUserOrExplain } from "~/auth/auth.server";
import { answersWithData, screenFailure, text } from "~/lib/forms.server";
import { clientAddress } from "~/lib/http/client-address.server";
import { readFormData } from "~/lib/http/bodies.server";
import { dataWithError, dataWithSuccess, redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { firstIssue } from "~/lib/validation.server";
import { API_TOKEN_NAME_MAX, API_TOKENS_MAX, apiTokenNameSchema, createApiToken, listApiTokens, revokeApiToken } from "~/models/api-token.server";
import { revokeOtherSessions, revokeSession } from "~/models/sessions.server";
import { accountSessions, accountUsage, changePassword, type PasswordChangeField } from "~/services/account.server";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/shared/credentials";
import accountStylesheet from "~/styles/account.css?url";
import libraryStylesheet from "~/styles/library.css?url";
import type { Route } from "./+types/account";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: libraryStylesheet },
  { rel: "stylesheet", href: accountStylesheet },
];

export const meta: Route.MetaFunction = () => [{ title: "Account · Creative AI Studio" }];

const LOG_IN_AGAIN = "Please log in again.";
const PASSWORDS_DO_NOT_MATCH = "❌ Passwords do not match.";

type Intent = "password" | "revoke-session" | "revoke-other-sessions" | "create-token" | "revoke-token";
type FieldName = PasswordChangeField | "confirm_password" | "name";

/** What the action answers when the page stays (a refusal, a fetcher's success, a new token). */
export interface AccountAnswer {
  intent: Intent | null;
  ok: boolean;
  message?: string;
  fieldErrors?: Partial<Record<FieldName, string>>;
  /** A token just made: shown this once. */
  created?: { id: string; name: string; token: string };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  const caller = { user, sessionId: currentSessionId(context) };
  const [sessions, tokens, usage] = await Promise.all([accountSessions(caller), listApiTokens(user.id), accountUsage(user.id)]);
  return { email: user.email, sessions, tokens, usage, limits: { passwordMin: PASSWORD_MIN, passwordMax: PASSWORD_MAX, tokenName: API_TOKEN_NAME_MAX, tokens: API_TOKENS_MAX } };
}

const answer = (result: AccountAnswer, status = 200) => data(result, { status });

/**
 * Posts to /account, by `intent`: password, revoke-session, revoke-other-sessions, create-token,
 * revoke-token. A plain form's success redirects back with a toast; a fetcher's (`enhanced`) is
 * answered with data and the toast; a refusal is answered with the reason beside its field (400). A
 * new token is answered with the page itself, either way: it is shown this once.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const user = await requireUserOrExplain(context, request, LOG_IN_AGAIN);
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch {
    return answer({ intent: null, ok: false, message: "Invalid form" }, 400);
  }
  const intent = text(form.get("intent")) as Intent;
  const caller = { user, sessionId: currentSessionId(context) };
  const done = (message: string) => (answersWithData(form) ? dataWithSuccess<AccountAnswer>({ intent, ok: true, message }, message) : redirectWithSuccess("/account", message));
  const refused = (message: string, status: number) =>
    answersWithData(form) ? dataWithError<AccountAnswer>({ intent, ok: false, message }, message, { status }) : redirectWithError("/account", message);

  if (intent === "password") {
    const values = { current_password: text(form.get("current_password")), new_password: text(form.get("new_password")) };
    if (values.new_password !== text(form.get("confirm_password"))) {
      return answer({ intent, ok: false, fieldErrors: { confirm_password: PASSWORDS_DO_NOT_MATCH } }, 400);
    }
    try {
      const { sessionsEnded } = await changePassword(caller, values, clientAddress(context));
      const others = sessionsEnded === 1 ? "1 other session was" : `${sessionsEnded} other sessions were`;
      return done(`✅ Password changed. ${others} signed out.`);
    } catch (error) {
      const failure = screenFailure(error);
      if (failure.status === 400 && (failure.code === "current_password" || failure.code === "new_password")) {
        return answer({ intent, ok: false, fieldErrors: { [failure.code]: failure.detail } }, 400);
      }
      return answer({ intent, ok: false, message: `❌ Password not changed: ${failure.detail ?? "Unexpected error."}` }, failure.status);
    }
  }
  if (intent === "revoke-session") {
    if (!(await revokeSession(user.id, text(form.get("id"))))) return refused("That session has already ended.", 404);
    return done("🔒 Session signed out");
  }
  if (intent === "revoke-other-sessions") {
    const ended = await revokeOtherSessions(user.id, caller.sessionId);
    return done(ended === 0 ? "No other session was signed in" : `🔒 Signed out everywhere else (${ended} session${ended === 1 ? "" : "s"})`);
  }
  if (intent === "create-token") {
    const name = apiTokenNameSchema.safeParse(text(form.get("name")));
    if (!name.success) return answer({ intent, ok: false, fieldErrors: { name: firstIssue(name.error) } }, 400);
    try {
      const created = await createApiToken(user.id, name.data);
      return answer({ intent, ok: true, created: { id: created.id, name: created.name, token: created.token } }, 201);
    } catch (error) {
      const failure = screenFailure(error);
      return answer({ intent, ok: false, fieldErrors: { name: failure.detail } }, failure.status);
    }
  }
  if (intent === "revoke-token") {
    if (!(await revokeApiToken(user.id, text(form.get("id"))))) return refused("That token was already revoked.", 404);
    return done("🗑️ Token revoked");
  }
  return answer({ intent: null, ok: false, message: "Unknown action" }, 400);
}

/** With JavaScript: a post that never reaches the server says so. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = (await request.clone().formData()).get("intent");
  return withFailureFallback(serverAction, (): AccountAnswer => ({ intent: intent as Intent, ok: false, message: "⚠️ Something went wrong. Please try again." }));
}

const dateTime = (iso: string | null) =>
  iso ? `${new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC` : "never";

function When({ iso }: { iso: string | null }) {
  return iso ? <time dateTime={iso}>{dateTime(iso)}</time> : <>never</>;
}

/** An answer meant for this form: the fetcher's (with JavaScript) or the page's (a plain post). */
function useAnswer(fetcher: { data?: AccountAnswer }, intents: Intent[]): AccountAnswer | undefined {
  const actionData = useActionData<AccountAnswer>();
  if (fetcher.data && intents.includes(fetcher.data.intent as Intent)) return fetcher.data;
  return actionData && intents.includes(actionData.intent as Intent) ? actionData : undefined;
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <span className="field-error" id={id}>
      {message}
    </span>
  ) : null;
}

function ErrorMessage({ result }: { result?: AccountAnswer }) {
  return result && !result.ok && result.message ? (
    <p className="message message-error" role="alert">
      {result.message}
    </p>
  ) : null;
}

/** The account (issue 27): password, sessions, personal API tokens and usage. Every form works without JavaScript. */
export default function Account({ loaderData }: Route.ComponentProps) {
  const { email, sessions, tokens, usage, limits } = loaderData;
  return (
    <main className="page page-narrow account-page">
      <PageHeader title="Account" icon="circle-user" />
      <p className="muted">Signed in as {email}.</p>
      <FlashMessage />
      <PasswordSection limits={limits} />
      <SessionsSection sessions={sessions} />
      <TokensSection tokens={tokens} nameMax={limits.tokenName} tokensMax={limits.tokens} />
      <section className="card account-section" aria-labelledby="usage-title">
        <h2 className="card-title" id="usage-title">
          Usage
        </h2>
        <StorageMeter usage={{ usedBytes: usage.storage.used_bytes, quotaBytes: usage.storage.quota_bytes, textBytes: usage.storage.text_bytes }} />
        <p data-testid="ai-usage">
          AI requests today: <strong>{usage.ai.requests_today}</strong>
          {usage.ai.daily_limit === null ? null : ` of ${usage.ai.daily_limit}`}
        </p>
        <p className="muted">
          At most {usage.ai.per_minute_limit} AI requests a minute and {usage.ai.concurrent_limit} at a time.
        </p>
      </section>
    </main>
  );
}

function PasswordSection({ limits }: { limits: { passwordMin: number; passwordMax: number } }) {
  const fetcher = useFetcher<AccountAnswer>({ key: "account-password" });
  const result = useAnswer(fetcher, ["password"]);
  const errors = result?.ok === false ? (result.fieldErrors ?? {}) : {};
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.intent === "password" && fetcher.data.ok) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);
  const field = (name: "current_password" | "new_password" | "confirm_password", label: string, autoComplete: string, hint?: string) => (
    <label>
      {label}
      <input
        type="password"
        name={name}
        required
        minLength={name === "current_password" ? undefined : limits.passwordMin}
        maxLength={limits.passwordMax}
        autoComplete={autoComplete}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${name}-error` : hint ? `${name}-hint` : undefined}
      />
      {hint && !errors[name] ? (
        <span className="muted account-hint" id={`${name}-hint`}>
          {hint}
        </span>
      ) : null}
      <FieldError id={`${name}-error`} message={errors[name]} />
    </label>
  );
  return (
    <section className="card account-section" aria-labelledby="password-title">
      <h2 className="card-title" id="password-title">
        Password
      </h2>
      <fetcher.Form method="post" action="/account" className="form" ref={formRef}>
        <input type="hidden" name="intent" value="password" />
        <EnhancedField />
        {field("current_password", "Current password", "current-password")}
        {field("new_password", "New password", "new-password", `At least ${limits.passwordMin} characters.`)}
        {field("confirm_password", "Confirm new password", "new-password")}
        <ErrorMessage result={result} />
        <p className="muted">Changing it signs out every other session; this one stays signed in.</p>
        <div>
          <button type="submit" className="button button-primary" disabled={fetcher.state !== "idle"}>
            {fetcher.state !== "idle" ? "Changing..." : "Change password"}
          </button>
        </div>
      </fetcher.Form>
    </section>
  );
}

type SessionRow = Route.ComponentProps["loaderData"]["sessions"][number];

function SessionsSection({ sessions }: { sessions: SessionRow[] }) {
  const others = sessions.filter((session) => !session.current).length;
  const fetcher = useFetcher<AccountAnswer>({ key: "account-sessions-others" });
  return (
    <section className="card account-section" aria-labelledby="sessions-title">
      <h2 className="card-title" id="sessions-title">
        Sessions
      </h2>
      <p className="muted">Where you are signed in. Signing a session out ends it at its next request.</p>
      <ul className="account-list" aria-label="Signed-in sessions">
        {sessions.map((session) => (
          <SessionItem key={session.id} session={session} />
        ))}
      </ul>
      {others > 0 ? (
        <fetcher.Form method="post" action="/account">
          <input type="hidden" name="intent" value="revoke-other-sessions" />
          <EnhancedField />
          <button type="submit" className="button button-ghost" disabled={fetcher.state !== "idle"}>
            <Icon name="log-out" />
            Log out everywhere else
          </button>
        </fetcher.Form>
      ) : null}
    </section>
  );
}

function SessionItem({ session }: { session: SessionRow }) {
  const fetcher = useFetcher<AccountAnswer>({ key: `account-session-${session.id}` });
  if (fetcher.state !== "idle" && fetcher.formData?.get("intent") === "revoke-session") return null;
  return (
    <li className="account-item" data-testid="session">
      <div className="account-item-text">
        <strong>{session.device}</strong>
        {session.current ? <span className="account-badge">This device</span> : null}
        <span className="muted account-facts">
          Signed in <When iso={session.created_at} /> · last used <When iso={session.last_used_at} />
        </span>
      </div>
      {session.current ? null : (
        <fetcher.Form method="post" action="/account">
          <input type="hidden" name="intent" value="revoke-session" />
          <input type="hidden" name="id" value={session.id} />
          <EnhancedField />
          <button type="submit" className="button button-ghost button-small" aria-label={`Sign out ${session.device}, last used ${dateTime(session.last_used_at)}`}>
            <Icon name="log-out" />
            Sign out
          </button>
        </fetcher.Form>
      )}
    </li>
  );
}

type TokenRow = Route.ComponentProps["loaderData"]["tokens"][number];

function TokensSection({ tokens, nameMax, tokensMax }: { tokens: TokenRow[]; nameMax: number; tokensMax: number }) {
  const fetcher = useFetcher<AccountAnswer>({ key: "account-token-create" });
  const result = useAnswer(fetcher, ["create-token"]);
  const created = result?.ok ? result.created : undefined;
  const nameError = result?.ok === false ? result.fieldErrors?.name : undefined;
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.created) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return (
    <section className="card account-section" aria-labelledby="tokens-title">
      <h2 className="card-title" id="tokens-title">
        Personal API tokens
      </h2>
      <p className="muted">
        For scripts: send one as <code>Authorization: Bearer &lt;token&gt;</code> on any <code>/api</code> call. At most {tokensMax}.
      </p>
      {created ? <NewToken created={created} /> : null}
      <fetcher.Form method="post" action="/account" className="form account-token-form" ref={formRef}>
        <input type="hidden" name="intent" value="create-token" />
        <EnhancedField />
        <label>
          Token name
          <input
            name="name"
            required
            maxLength={nameMax}
            placeholder="e.g. Backup script"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "token-name-error" : undefined}
          />
          <FieldError id="token-name-error" message={nameError} />
        </label>
        <div>
          <button type="submit" className="button button-primary" disabled={fetcher.state !== "idle"}>
            <Icon name="plus" />
            Create token
          </button>
        </div>
      </fetcher.Form>
      {tokens.length === 0 ? (
        <p className="muted">No tokens yet.</p>
      ) : (
        <ul className="account-list" aria-label="Your API tokens">
          {tokens.map((token) => (
            <TokenItem key={token.id} token={token} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** The new token, this once: a field to select (without JavaScript) and a copy button (with it). */
function NewToken({ created }: { created: { name: string; token: string } }) {
  const hydrated = useHydrated();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(created.token);
      setCopied(true);
    } catch {
      setCopied(document.execCommand("copy"));
    }
  };
  return (
    <div className="message message-success account-new-token" role="status">
      <p>
        Token “{created.name}” created. Copy it now: it will not be shown again.
      </p>
      <div className="account-token-copy">
        <label className="visually-hidden" htmlFor="new-token">
          New token
        </label>
        <input id="new-token" ref={field} readOnly value={created.token} onFocus={(event) => event.currentTarget.select()} spellCheck={false} />
        {hydrated ? (
          <button type="button" className="button button-small" onClick={copy}>
            <Icon name="check" />
            {copied ? "Copied" : "Copy"}
          </button>
        ) : null}
      </div>
    </div>
  );
}

function TokenItem({ token }: { token: TokenRow }) {
  const fetcher = useFetcher<AccountAnswer>({ key: `account-token-${token.id}` });
  if (fetcher.state !== "idle" && fetcher.formData?.get("intent") === "revoke-token") return null;
  return (
    <li className="account-item" data-testid="api-token">
      <div className="account-item-text">
        <strong>{token.name}</strong>
        <span className="muted account-facts">
          Created <When iso={token.created_at} /> · last used <When iso={token.last_used_at} />
        </span>
      </div>
      <fetcher.Form method="post" action="/account">
        <input type="hidden" name="intent" value="revoke-token" />
        <input type="hidden" name="id" value={token.id} />
        <EnhancedField />
        <button type="submit" className="button button-ghost button-small" aria-label={`Revoke ${token.name}`}>
          <Icon name="trash-2" />
          Revoke
        </button>
      </fetcher.Form>
    </li>
  );
}
