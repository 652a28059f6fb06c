import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { revokeQuestion } from "~/common/delete-question";
import { RevokeForm } from "./account-revoke";
import { FieldError, useAnswer, When, type TokenRow } from "./account-sections";
import { EnhancedField } from "~/components/ui/enhanced-field";
import { Icon } from "~/components/ui/icon";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { clientAction } from "~/routes/account";
import { useT } from "~/components/ui/i18n";
import { formatNumber } from "~/common/i18n/formats";
import { slot, withElements } from "~/components/ui/with-elements";

/**
 * The account screen's access tokens (app/routes/account.tsx): create one (its secret is shown this
 * once), list them, revoke one. The forms post to /account like the other sections (./account-sections.tsx).
 */
export function TokensSection({
  tokens,
  nameMax,
  tokensMax,
}: {
  tokens: TokenRow[];
  nameMax: number;
  tokensMax: number;
}) {
  const { t, language } = useT();
  const fetcher = useFetcher<typeof clientAction>({ key: "account-token-create" });
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
        {t("Personal API tokens")}
      </h2>
      <p className="muted">
        {withElements(
          t("For scripts: send one as {{header}} on any {{api}} call. At most {{max}}.", {
            header: slot("header"),
            api: slot("api"),
            max: formatNumber(language, tokensMax, { useGrouping: false }),
          }),
          { header: <code>Authorization: Bearer &lt;token&gt;</code>, api: <code>/api</code> },
        )}
      </p>
      {created ? <NewToken created={created} /> : null}
      <fetcher.Form method="post" action="/account" className="form account-token-form" ref={formRef}>
        <input type="hidden" name="intent" value="create-token" />
        <EnhancedField />
        <label>
          {t("Token name")}
          <input
            name="name"
            required
            maxLength={nameMax}
            placeholder={t("e.g. Backup script")}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "token-name-error" : undefined}
          />
          <FieldError id="token-name-error" message={nameError} />
        </label>
        <div>
          <button type="submit" className="button button-primary" disabled={fetcher.state !== "idle"}>
            <Icon name="plus" />
            {t("Create token")}
          </button>
        </div>
      </fetcher.Form>
      {tokens.length === 0 ? (
        <p className="muted">{t("No tokens yet.")}</p>
      ) : (
        <ul className="account-list" aria-label={t("Your API tokens")}>
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
  const { t } = useT();
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
      <p>{t("Token “{{name}}” created. Copy it now: it will not be shown again.", { name: created.name })}</p>
      <div className="account-token-copy">
        <label className="visually-hidden" htmlFor="new-token">
          {t("New token")}
        </label>
        <input
          id="new-token"
          ref={field}
          readOnly
          value={created.token}
          onFocus={(event) => event.currentTarget.select()}
          spellCheck={false}
        />
        {hydrated ? (
          <button type="button" className="button button-small" onClick={copy}>
            <Icon name="check" />
            {copied ? t("Copied") : t("Copy")}
          </button>
        ) : null}
      </div>
    </div>
  );
}

function TokenItem({ token }: { token: TokenRow }) {
  const { t } = useT();
  const fetcher = useFetcher<typeof clientAction>({ key: `account-token-${token.id}` });
  if (fetcher.state !== "idle" && fetcher.formData?.get("intent") === "revoke-token") return null;
  return (
    <li className="account-item" data-testid="api-token">
      <div className="account-item-text">
        <strong>{token.name}</strong>
        <span className="muted account-facts">
          {withElements(
            t("Created {{created}} · last used {{used}}", { created: slot("created"), used: slot("used") }),
            { created: <When iso={token.created_at} />, used: <When iso={token.last_used_at} /> },
          )}
        </span>
      </div>
      <RevokeForm
        fetcherKey={`account-token-${token.id}`}
        intent="revoke-token"
        id={token.id}
        question={revokeQuestion(token.name, t)}
        confirmLabel={t("Revoke")}
        label={t("Revoke {{name}}", { name: token.name })}
        icon="trash-2"
      >
        {t("Revoke")}
      </RevokeForm>
    </li>
  );
}
