import { useEffect, useRef } from "react";
import { useActionData, useFetcher } from "react-router";
import { signOutQuestion } from "~/common/delete-question";
import { RevokeForm } from "./account-revoke";
import { EnhancedField } from "~/components/ui/enhanced-field";
import { Icon } from "~/components/ui/icon";
import { StorageMeter } from "~/components/shell/storage-meter";
import { useT } from "~/components/ui/i18n";
import { slot, withElements } from "~/components/ui/with-elements";
import { formatDateTime, formatNumber } from "~/common/i18n/formats";
import type { Translator } from "~/common/i18n/translate";
import type { clientAction } from "~/routes/account";

/**
 * The account screen's sections (app/routes/account.tsx; decision 0047): each form posts to /account with
 * its `intent` and works without JavaScript; with it, a fetcher sends it and the page stays.
 */
export type AccountIntent =
  "password" | "revoke-session" | "revoke-other-sessions" | "create-token" | "revoke-token" | "revoke-share";
export type AccountField = "current_password" | "new_password" | "confirm_password" | "name";

/** What the action answers when the page stays (a refusal, a fetcher's success, a new token); its texts in the screen's language. */
export interface AccountAnswer {
  intent: AccountIntent | null;
  ok: boolean;
  message?: string;
  fieldErrors?: Partial<Record<AccountField, string>>;
  /** A token just made: shown this once. */
  created?: { id: string; name: string; token: string };
}

export interface SessionRow {
  id: string;
  device: string;
  created_at: string;
  last_used_at: string;
  current: boolean;
}

export interface TokenRow {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface UsageView {
  storage: { used_bytes: number; quota_bytes: number; text_bytes: number };
  ai: { requests_today: number; per_minute_limit: number; concurrent_limit: number; daily_limit: number | null };
}

/** A moment as the rows say it ("Jan 5, 2026, 3:04 PM UTC"), or "never". */
const dateTime = ({ t, language }: Translator, iso: string | null) =>
  iso ? formatDateTime(language, iso, "dateTime") : t("never");

export function When({ iso }: { iso: string | null }) {
  const translator = useT();
  return iso ? <time dateTime={iso}>{dateTime(translator, iso)}</time> : <>{translator.t("never")}</>;
}

/** An answer meant for this form: the fetcher's (with JavaScript) or the page's (a plain post). */
export function useAnswer(fetcher: { data?: AccountAnswer }, intents: AccountIntent[]): AccountAnswer | undefined {
  const actionData = useActionData<typeof clientAction>();
  if (fetcher.data && intents.includes(fetcher.data.intent as AccountIntent)) return fetcher.data;
  return actionData && intents.includes(actionData.intent as AccountIntent) ? actionData : undefined;
}

/** The action's texts come in the screen's language; a text the page itself answered (clientAction) is looked up. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  const { t } = useT();
  return message ? (
    <span className="field-error" id={id}>
      {t(message)}
    </span>
  ) : null;
}

export function ErrorMessage({ result }: { result?: AccountAnswer }) {
  const { t } = useT();
  return result && !result.ok && result.message ? (
    <p className="message message-error" role="alert">
      {t(result.message)}
    </p>
  ) : null;
}

export function PasswordSection({ limits }: { limits: { passwordMin: number; passwordMax: number } }) {
  const { t } = useT();
  const fetcher = useFetcher<typeof clientAction>({ key: "account-password" });
  const result = useAnswer(fetcher, ["password"]);
  const errors = result?.ok === false ? (result.fieldErrors ?? {}) : {};
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.intent === "password" && fetcher.data.ok) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);
  const field = (
    name: "current_password" | "new_password" | "confirm_password",
    label: string,
    autoComplete: string,
    hint?: string,
  ) => (
    <div className="account-field">
      <label htmlFor={`account-${name}`}>{label}</label>
      <input
        id={`account-${name}`}
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
    </div>
  );
  return (
    <section className="card account-section" aria-labelledby="password-title">
      <h2 className="card-title" id="password-title">
        {t("Password")}
      </h2>
      <fetcher.Form method="post" action="/account" className="form" ref={formRef}>
        <input type="hidden" name="intent" value="password" />
        <EnhancedField />
        {field("current_password", t("Current password"), "current-password")}
        {field(
          "new_password",
          t("New password"),
          "new-password",
          t("At least {{min}} characters.", { min: limits.passwordMin }),
        )}
        {field("confirm_password", t("Confirm new password"), "new-password")}
        <label className="account-check">
          <input type="checkbox" name="revoke_tokens" defaultChecked />
          {t("Also revoke API tokens")}
        </label>
        <label className="account-check">
          <input type="checkbox" name="revoke_shares" />
          {t("Also end my share links")}
        </label>
        <ErrorMessage result={result} />
        <p className="muted">
          {t(
            "Changing it signs out every other session; this one stays signed in. Unless you untick the box, your personal API tokens are revoked too.",
          )}
        </p>
        <div>
          <button type="submit" className="button button-primary" disabled={fetcher.state !== "idle"}>
            {fetcher.state !== "idle" ? t("Changing...") : t("Change password")}
          </button>
        </div>
      </fetcher.Form>
    </section>
  );
}

export function SessionsSection({ sessions }: { sessions: SessionRow[] }) {
  const { t } = useT();
  const others = sessions.filter((session) => !session.current).length;
  const fetcher = useFetcher<typeof clientAction>({ key: "account-sessions-others" });
  return (
    <section className="card account-section" aria-labelledby="sessions-title">
      <h2 className="card-title" id="sessions-title">
        {t("Sessions")}
      </h2>
      <p className="muted">{t("Where you are signed in. Signing a session out ends it at its next request.")}</p>
      <ul className="account-list" aria-label={t("Signed-in sessions")}>
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
            {t("Log out everywhere else")}
          </button>
        </fetcher.Form>
      ) : null}
    </section>
  );
}

function SessionItem({ session }: { session: SessionRow }) {
  const translator = useT();
  const { t } = translator;
  const fetcher = useFetcher<typeof clientAction>({ key: `account-session-${session.id}` });
  if (fetcher.state !== "idle" && fetcher.formData?.get("intent") === "revoke-session") return null;
  return (
    <li className="account-item" data-testid="session">
      <div className="account-item-text">
        <strong>{session.device}</strong>
        {session.current ? <span className="account-badge">{t("This device")}</span> : null}
        <span className="muted account-facts">
          {withElements(
            t("Signed in {{created}} · last used {{used}}", { created: slot("created"), used: slot("used") }),
            { created: <When iso={session.created_at} />, used: <When iso={session.last_used_at} /> },
          )}
        </span>
      </div>
      {session.current ? null : (
        <RevokeForm
          fetcherKey={`account-session-${session.id}`}
          intent="revoke-session"
          id={session.id}
          question={signOutQuestion(session.device, t)}
          confirmLabel={t("Sign out")}
          label={t("Sign out {{device}}, last used {{when}}", {
            device: session.device,
            when: dateTime(translator, session.last_used_at),
          })}
          icon="log-out"
        >
          {t("Sign out")}
        </RevokeForm>
      )}
    </li>
  );
}

export function UsageSection({ usage }: { usage: UsageView }) {
  const { t, language } = useT();
  // Without grouping, as these numbers always read ("1000").
  const number = (value: number) => formatNumber(language, value, { useGrouping: false });
  const used = <strong>{number(usage.ai.requests_today)}</strong>;
  return (
    <section className="card account-section" aria-labelledby="usage-title">
      <h2 className="card-title" id="usage-title">
        {t("Usage")}
      </h2>
      <StorageMeter
        usage={{
          usedBytes: usage.storage.used_bytes,
          quotaBytes: usage.storage.quota_bytes,
          textBytes: usage.storage.text_bytes,
        }}
      />
      <p data-testid="ai-usage">
        {usage.ai.daily_limit === null
          ? withElements(t("AI requests today: {{used}}", { used: slot("used") }), { used })
          : withElements(
              t("AI requests today: {{used}} of {{limit}}", {
                used: slot("used"),
                limit: number(usage.ai.daily_limit),
              }),
              { used },
            )}
      </p>
      <p className="muted">
        {t("At most {{perMinute}} AI requests a minute and {{concurrent}} at a time.", {
          perMinute: number(usage.ai.per_minute_limit),
          concurrent: number(usage.ai.concurrent_limit),
        })}
      </p>
    </section>
  );
}
