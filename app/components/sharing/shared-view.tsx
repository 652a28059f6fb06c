import { formatDateTime } from "~/common/i18n/formats";
import { SHARED_SLOT_LABELS, type SharedPageData } from "~/common/sharing/shared-page-view";
import { useT } from "~/components/ui/i18n";
import { MARK, SentenceWith } from "./sentence-with";
import { SharedFrame } from "./shared-frame";
import { SharedMedia } from "./shared-media";

type Shared = Extract<SharedPageData, { state: "shared" }>;

/**
 * What a link shows, read-only (docs/screens.md#shared-page): a text, a file, or a project with its
 * media. Everything a person wrote is rendered as text (React escapes it), its line breaks kept by CSS.
 */
export function SharedView({ page }: { page: Shared }) {
  const { t, language } = useT();
  const untitled = t("Untitled");
  return (
    <SharedFrame>
      {page.content ? (
        <article className="card shared-card">
          <h1 className="shared-title">{page.content.title || untitled}</h1>
          <p className="muted shared-meta">
            <SentenceWith text={t("Shared text · updated {{date}}", { date: MARK })}>
              {/* The day in words, as the server renders it once (the page never hydrates). */}
              <time dateTime={page.content.updatedAt}>{formatDateTime(language, page.content.updatedAt, "date")}</time>
            </SentenceWith>
          </p>
          <div className="shared-text">{page.content.body}</div>
        </article>
      ) : null}
      {page.file ? (
        <article className="card shared-card">
          <h1 className="shared-title">{page.file.name || untitled}</h1>
          <SharedMedia file={page.file} />
        </article>
      ) : null}
      {page.project ? (
        <article className="card shared-card">
          <h1 className="shared-title">{page.project.title || untitled}</h1>
          <p className="muted shared-meta">{t("Shared project")}</p>
          {page.project.description ? <p className="shared-text">{page.project.description}</p> : null}
          {page.project.media.length === 0 ? <p className="muted">{t("No media attached.")}</p> : null}
          {page.project.media.map((media) => (
            <section key={media.id} className="shared-project-media">
              <h2>{t(SHARED_SLOT_LABELS[media.slot] ?? media.slot)}</h2>
              <SharedMedia file={media} />
            </section>
          ))}
        </article>
      ) : null}
    </SharedFrame>
  );
}
