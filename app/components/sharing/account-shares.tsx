import { Link, useFetcher } from "react-router";
import { DELETED_TITLE, KIND_NAMES, type SharedLink } from "~/common/sharing/share-link-view";
import { revokeShareQuestion } from "~/common/delete-question";
import { useT } from "~/components/ui/i18n";
import { RevokeForm } from "~/components/accounts/account-revoke";
import { LinkFacts, LinkField } from "./share-link";
import type { clientAction } from "~/routes/account";

/** The account with the page of links that follows `cursor` (none: the newest), at the section. */
const sharesPageUrl = (cursor: string | null) =>
  `/account${cursor ? `?${new URLSearchParams({ shares_cursor: cursor })}` : ""}#shared-links`;

/**
 * The account's "Shared links" (docs/screens.md#sharing): the links the person made, newest first, a
 * page at a time ("Older links", plain links that work without JavaScript), with their target, views
 * and expiry, Copy and Revoke (which asks first, as every delete does).
 */
export function SharedLinksSection({
  shares,
  next,
  older,
  sharingOff,
}: {
  shares: SharedLink[];
  /** The next page's cursor, or null when no older link follows. */
  next: string | null;
  /** Whether this is a later page. */
  older: boolean;
  sharingOff: boolean;
}) {
  const { t } = useT();
  return (
    <section className="card account-section" aria-labelledby="shared-links-title" id="shared-links">
      <h2 className="card-title" id="shared-links-title">
        {t("Shared links")}
      </h2>
      <p className="muted">
        {sharingOff
          ? t(
              "Sharing is turned off on this server: these links open nothing now, but would again if it is turned back on. Revoke the ones you no longer want.",
            )
          : t("Anyone with one of these links can open what it points to, without an account.")}
      </p>
      {shares.length === 0 ? (
        <p className="muted" data-testid="shared-links-empty">
          {t("No shared links yet.")}
        </p>
      ) : (
        <ul className="account-list" aria-label={t("Your shared links")}>
          {shares.map((link) => (
            <SharedLinkItem key={link.id} link={link} />
          ))}
        </ul>
      )}
      {older || next ? (
        <nav className="account-pages" aria-label={t("Shared links")}>
          {older ? (
            <Link className="button button-ghost" to={sharesPageUrl(null)}>
              {t("Newest links")}
            </Link>
          ) : null}
          {next ? (
            <Link className="button" to={sharesPageUrl(next)} data-testid="shared-links-older">
              {t("Older links")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

function SharedLinkItem({ link }: { link: SharedLink }) {
  const { t } = useT();
  // A deleted target's title is the model's English word: the screen says it in its language.
  const title = link.state === "gone" && link.title === DELETED_TITLE ? t(DELETED_TITLE) : link.title;
  const fetcherKey = `account-share-${link.id}`;
  const fetcher = useFetcher<typeof clientAction>({ key: fetcherKey });
  if (fetcher.state !== "idle" && fetcher.formData?.get("intent") === "revoke-share") return null;
  return (
    <li className="account-item share-account-item" data-testid="shared-link">
      <div className="account-item-text">
        <strong>{title}</strong>
        <span className="account-badge">{t(KIND_NAMES[link.kind])}</span>
        <LinkFacts link={link} />
        <LinkField link={link} />
      </div>
      <RevokeForm
        fetcherKey={fetcherKey}
        intent="revoke-share"
        id={link.id}
        question={revokeShareQuestion(title, t)}
        confirmLabel={t("Revoke")}
        label={t("Revoke the link to {{title}}, made {{date}}", { title, date: link.created_at.slice(0, 10) })}
        icon="trash-2"
      >
        {t("Revoke")}
      </RevokeForm>
    </li>
  );
}
