import { useActionData, useFetcher } from "react-router";
import {
  NEVER_EXPIRES,
  SHARE_RETRY,
  shareFieldText,
  type ShareAnswer,
  type SharedKind,
  type SharePanelData,
  type SharingOptions,
} from "~/common/sharing/share-link-view";
import { EnhancedField } from "~/components/ui/enhanced-field";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { MARK, SentenceWith } from "./sentence-with";
import { LinkFacts, LinkField } from "./share-link";

/**
 * What Share offers for one target (docs/screens.md#sharing): an expiry, an optional maximum of views
 * and Create link, then the link with Copy link and its QR code, and the links made before. It posts
 * intent=share to its screen's action: with JavaScript a fetcher answers the link as data; without it
 * the post redirects back to this panel in the page (`action`, ?share={id}), which shows the link.
 */
export function SharePanel({
  kind,
  id,
  title,
  action,
  options,
  panel,
}: {
  kind: SharedKind;
  id: string;
  title: string;
  /** The screen's action with ?share={id}: a refusal without JavaScript comes back to this panel. */
  action: string;
  options: SharingOptions;
  /** What the page's loader knows (JavaScript off): the target's links and the one just made. */
  panel: SharePanelData | null;
}) {
  const translator = useT();
  const { t } = translator;
  const fetcher = useFetcher<ShareAnswer>({ key: `share-${kind}-${id}` });
  const actionData = useActionData<ShareAnswer | Record<string, unknown>>();
  const pageAnswer =
    actionData && actionData.intent === "share" && actionData.id === id ? (actionData as ShareAnswer) : null;
  const answer = fetcher.data?.intent === "share" ? fetcher.data : fetcher.data ? failedAnswer(id) : pageAnswer;
  const created = answer?.ok ? answer : null;
  const refused = answer && !answer.ok ? answer : null;
  const shown = created ?? panel?.shown ?? null;
  const earlier = (created?.shares ?? panel?.shares ?? []).filter((link) => link.id !== shown?.share.id);
  const busy = fetcher.state !== "idle";
  const prefix = `share-${kind}-${id}`;
  const maxError = refused?.fieldErrors?.max_views;
  const expiryError = refused?.fieldErrors?.expires_in_hours;

  return (
    <div className="share-panel" data-testid="share-panel">
      <fetcher.Form method="post" action={action} className="share-form">
        <input type="hidden" name="intent" value="share" />
        <input type="hidden" name="kind" value={kind} />
        <input type="hidden" name="id" value={id} />
        <EnhancedField />
        <div className="share-fields">
          <div className="share-field">
            <label htmlFor={`${prefix}-expiry`}>{t("Link expires after")}</label>
            <select
              id={`${prefix}-expiry`}
              name="expires_in_hours"
              defaultValue={options.defaultHours === null ? NEVER_EXPIRES : String(options.defaultHours)}
              aria-invalid={expiryError ? true : undefined}
              aria-describedby={expiryError ? `${prefix}-expiry-error` : undefined}
            >
              {options.expiry.map((choice) => (
                <option key={choice.label} value={choice.hours === null ? NEVER_EXPIRES : String(choice.hours)}>
                  {t(choice.label)}
                </option>
              ))}
            </select>
            {expiryError ? (
              <span className="field-error" id={`${prefix}-expiry-error`}>
                {shareFieldText(translator, expiryError)}
              </span>
            ) : null}
          </div>
          <div className="share-field">
            <label htmlFor={`${prefix}-max-views`}>{t("Maximum views")}</label>
            <input
              id={`${prefix}-max-views`}
              name="max_views"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              placeholder={t("Unlimited")}
              aria-invalid={maxError ? true : undefined}
              aria-describedby={maxError ? `${prefix}-max-views-error` : `${prefix}-max-views-hint`}
            />
            {maxError ? (
              <span className="field-error" id={`${prefix}-max-views-error`}>
                {shareFieldText(translator, maxError)}
              </span>
            ) : (
              <span className="muted share-hint" id={`${prefix}-max-views-hint`}>
                {t("Leave empty for no limit.")}
              </span>
            )}
          </div>
        </div>
        {refused && !refused.fieldErrors ? (
          <p className="message message-error" role="alert">
            {t(refused.message)}
            {refused.detail ? ` ${t(refused.detail)}` : null}
          </p>
        ) : null}
        <div>
          <button type="submit" className="button button-primary" disabled={busy}>
            <Icon name="plus" />
            {busy ? t("Creating...") : t("Create link")}
          </button>
        </div>
      </fetcher.Form>

      {shown ? (
        <div className="share-result" data-testid="share-result">
          <LinkField link={shown.share} label={t("Link to “{{title}}”", { title })} />
          <LinkFacts link={shown.share} />
          <img
            className="share-qr"
            src={shown.qr}
            alt={t("QR code of the link to “{{title}}”", { title })}
            width={168}
            height={168}
            data-testid="share-qr"
          />
        </div>
      ) : null}

      {earlier.length > 0 ? (
        <div className="share-earlier">
          <h3 className="share-earlier-title">{t("Links made before")}</h3>
          <ul className="share-earlier-list">
            {earlier.map((link) => (
              <li key={link.id} className="share-earlier-item">
                <LinkField link={link} label={t("Link made {{date}}", { date: link.created_at.slice(0, 10) })} />
                <LinkFacts link={link} />
              </li>
            ))}
          </ul>
          <p className="muted">
            <SentenceWith text={t("Turn links off under {{place}}.", { place: MARK })}>
              <a href="/account#shared-links">{t("Account, Shared links")}</a>
            </SentenceWith>
          </p>
        </div>
      ) : null}
    </div>
  );
}

/** A screen's own answer to a failed request (its clientAction's fallback) reaches this fetcher too. */
function failedAnswer(id: string): ShareAnswer {
  return { intent: "share", ok: false, id, message: SHARE_RETRY };
}
