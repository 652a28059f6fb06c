import { Fragment } from "react";
import { useFetcher } from "react-router";
import type { DiffPart } from "~/common/content/word-diff";
import { REASON_LABELS, versionTime, type OpenVersion } from "~/common/content/version-reasons";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/;

/**
 * A translated sentence with elements in it, in the translation's own word order: each `{{name}}` of
 * the text is replaced by `parts[name]`.
 */
export function fillIn(text: string, parts: Record<string, React.ReactNode>): React.ReactNode[] {
  return text
    .split(new RegExp(PLACEHOLDER, "g"))
    .map((piece, index) =>
      index % 2 === 1 ? <Fragment key={index}>{parts[piece] ?? `{{${piece}}}`}</Fragment> : piece,
    );
}

/** The words before and after a sentence's one placeholder ("[added: " and "]" around the words). */
export function around(text: string): [string, string] {
  const [before, , after = ""] = text.split(PLACEHOLDER);
  return [before, after];
}

/**
 * A word diff as text: <del> for words only the opened version has, <ins> for words only the current
 * text has, each with a hidden word for screen readers (which do not announce <ins>/<del> by default).
 * React writes every part as text, so markup in a piece stays text.
 */
export function DiffText({ parts }: { parts: readonly DiffPart[] }) {
  const { t } = useT();
  const [addedBefore, addedAfter] = around(t("[added: {{words}}]"));
  const [removedBefore, removedAfter] = around(t("[removed: {{words}}]"));
  return (
    <>
      {parts.map((part, index) =>
        part.kind === "same" ? (
          <span key={index}>{part.text}</span>
        ) : part.kind === "added" ? (
          <ins key={index}>
            <span className="visually-hidden">{addedBefore}</span>
            {part.text}
            <span className="visually-hidden">{addedAfter}</span>
          </ins>
        ) : (
          <del key={index}>
            <span className="visually-hidden">{removedBefore}</span>
            {part.text}
            <span className="visually-hidden">{removedAfter}</span>
          </del>
        ),
      )}
    </>
  );
}

/** The opened version: what changed since it (title, then body) and Restore. */
export function VersionPanel({ contentId, version }: { contentId: string; version: OpenVersion }) {
  const { t, language } = useT();
  const when = versionTime(version.created_at, language);
  return (
    <section className="card history-version" aria-labelledby="history-version-heading">
      <h2 id="history-version-heading">
        {fillIn(t("Version from {{time}}"), { time: <time dateTime={version.created_at}>{when}</time> })}
      </h2>
      <p className="muted">{t(REASON_LABELS[version.reason])}</p>
      {version.changed ? (
        <>
          <p className="history-legend">
            {fillIn(
              t(
                "Changes since this version: {{struck}} were in this version, {{underlined}} are in the current text only.",
              ),
              {
                struck: <del>{t("struck-through words")}</del>,
                underlined: <ins>{t("underlined words")}</ins>,
              },
            )}
          </p>
          <h3 className="history-field">{t("Title")}</h3>
          <p className="history-diff history-diff-title" data-testid="diff-title">
            <DiffText parts={version.title} />
          </p>
          <h3 className="history-field">{t("Body")}</h3>
          {version.body.length > 0 ? (
            <div className="history-diff history-diff-body" data-testid="diff-body">
              <DiffText parts={version.body} />
            </div>
          ) : (
            <p className="muted">{t("No content yet.")}</p>
          )}
          <RestoreForm contentId={contentId} versionId={version.id} />
        </>
      ) : (
        <p className="muted">{t("This version is the same as the current text.")}</p>
      )}
    </section>
  );
}

/** Restore posts to the History screen's action; with JavaScript a fetcher sends it and follows its redirect. */
function RestoreForm({ contentId, versionId }: { contentId: string; versionId: string }) {
  const { t } = useT();
  const fetcher = useFetcher({ key: `restore-version-${versionId}` });
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form
      method="post"
      action={`/content/${encodeURIComponent(contentId)}/history`}
      className="history-restore"
    >
      <input type="hidden" name="intent" value="restore-version" />
      <input type="hidden" name="version_id" value={versionId} />
      <button type="submit" className="button button-primary" disabled={busy}>
        <Icon name="rotate-ccw" />
        {busy ? t("Restoring…") : t("Restore this version")}
      </button>
    </fetcher.Form>
  );
}
