import { useFetcher } from "react-router";
import type { DiffPart } from "~/common/content/word-diff";
import { REASON_LABELS, versionTime, type OpenVersion } from "~/common/content/version-reasons";
import { Icon } from "~/components/ui/icon";

/**
 * A word diff as text: <del> for words only the opened version has, <ins> for words only the current
 * text has, each with a hidden word for screen readers (which do not announce <ins>/<del> by default).
 * React writes every part as text, so markup in a piece stays text.
 */
export function DiffText({ parts }: { parts: readonly DiffPart[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.kind === "same" ? (
          <span key={index}>{part.text}</span>
        ) : part.kind === "added" ? (
          <ins key={index}>
            <span className="visually-hidden">[added: </span>
            {part.text}
            <span className="visually-hidden">]</span>
          </ins>
        ) : (
          <del key={index}>
            <span className="visually-hidden">[removed: </span>
            {part.text}
            <span className="visually-hidden">]</span>
          </del>
        ),
      )}
    </>
  );
}

/** The opened version: what changed since it (title, then body) and Restore. */
export function VersionPanel({ contentId, version }: { contentId: string; version: OpenVersion }) {
  const when = versionTime(version.created_at);
  return (
    <section className="card history-version" aria-labelledby="history-version-heading">
      <h2 id="history-version-heading">
        {"Version from "}
        <time dateTime={version.created_at}>{when}</time>
      </h2>
      <p className="muted">{REASON_LABELS[version.reason]}</p>
      {version.changed ? (
        <>
          <p className="history-legend">
            Changes since this version: <del>struck-through words</del> were in this version,{" "}
            <ins>underlined words</ins> are in the current text only.
          </p>
          <h3 className="history-field">Title</h3>
          <p className="history-diff history-diff-title" data-testid="diff-title">
            <DiffText parts={version.title} />
          </p>
          <h3 className="history-field">Body</h3>
          {version.body.length > 0 ? (
            <div className="history-diff history-diff-body" data-testid="diff-body">
              <DiffText parts={version.body} />
            </div>
          ) : (
            <p className="muted">No content yet.</p>
          )}
          <RestoreForm contentId={contentId} versionId={version.id} />
        </>
      ) : (
        <p className="muted">This version is the same as the current text.</p>
      )}
    </section>
  );
}

/** Restore posts to the History screen's action; with JavaScript a fetcher sends it and follows its redirect. */
function RestoreForm({ contentId, versionId }: { contentId: string; versionId: string }) {
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
        {busy ? "Restoring…" : "Restore this version"}
      </button>
    </fetcher.Form>
  );
}
