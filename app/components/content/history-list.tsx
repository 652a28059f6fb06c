import { Link } from "react-router";
import { REASON_LABELS, sizeChangeLabel, versionTime, type HistoryScreen } from "~/common/content/version-reasons";
import { around, VersionPanel } from "./history-diff";
import { FlashFallback } from "~/components/shell/flash-message";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";

export const HISTORY_EMPTY = msg("No versions yet. Versions are kept when you save.");
export const RESTORE_FAILED = msg("Could not restore that version.");
const VERSION_MISSING = msg("That version is no longer kept.");

/** The address of one page of the history, with one version open or none. */
function historyUrl(contentId: string, page: number, versionId?: string | null) {
  const query = new URLSearchParams();
  if (page > 1) query.set("page", String(page));
  if (versionId) query.set("version", versionId);
  const search = query.toString();
  return `/content/${encodeURIComponent(contentId)}/history${search ? `?${search}` : ""}`;
}

/**
 * A piece's History: its versions newest first (time, why kept, size change), paged, and the one opened
 * with `?version=` shown as words against the current text, with Restore. Links and a form only: the
 * screen works the same without JavaScript.
 */
export function ContentHistory({ history }: { history: HistoryScreen }) {
  const { t, language } = useT();
  const { item, rows, page, pageSize, total, open } = history;
  const viewUrl = `/content/${encodeURIComponent(item.id)}`;
  const hasNewer = page > 1;
  const hasOlder = page * pageSize < total;
  return (
    <article className="content-history">
      <p>
        <Link className="button button-ghost" to={viewUrl}>
          <Icon name="arrow-left" />
          {t("Back to the text")}
        </Link>
      </p>
      <h1>{t("History")}</h1>
      <p className="muted history-of">{item.title}</p>
      <FlashFallback />
      {history.versionMissing ? (
        <p className="message message-error" role="alert">
          {t(VERSION_MISSING)}
        </p>
      ) : null}
      {open ? <VersionPanel contentId={item.id} version={open} /> : null}
      {rows.length === 0 ? (
        <p className="muted history-empty">{t(HISTORY_EMPTY)}</p>
      ) : (
        <ol className="history-list" aria-label={t("Versions, newest first")}>
          {rows.map((row) => (
            <li key={row.id} className="history-row">
              <Link
                to={historyUrl(item.id, page, row.id)}
                aria-current={open?.id === row.id ? "true" : undefined}
                preventScrollReset={false}
              >
                <time dateTime={row.created_at}>{versionTime(row.created_at, language)}</time>
              </Link>
              <span className="history-reason">{t(REASON_LABELS[row.reason])}</span>
              <SizeChange change={row.size_change} />
            </li>
          ))}
        </ol>
      )}
      {total > pageSize ? (
        <nav className="history-pages" aria-label={t("History pages")}>
          {hasNewer ? (
            <Link className="button button-ghost" to={historyUrl(item.id, page - 1)}>
              {t("← Newer")}
            </Link>
          ) : null}
          {hasOlder ? (
            <Link className="button" to={historyUrl(item.id, page + 1)}>
              {t("Older →")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </article>
  );
}

/** "+120 B" / "−40 B" / "—", said in words to a screen reader. */
function SizeChange({ change }: { change: number | null }) {
  const { t, language } = useT();
  const label = sizeChangeLabel(change, language);
  const [before, after] = around(t("size change {{change}}"));
  return (
    <span className="history-size">
      <span className="visually-hidden">{change ? before : t("no size change")}</span>
      <span aria-hidden={change ? undefined : true}>{label}</span>
      {change && after ? <span className="visually-hidden">{after}</span> : null}
    </span>
  );
}

export { LoadFailedNotice as HistoryNotFound } from "./content-editor";
