import { SHARED_SLOT_LABELS, type SharedPageData } from "~/common/sharing/shared-page-view";
import { SharedFrame } from "./shared-frame";
import { SharedMedia } from "./shared-media";

type Shared = Extract<SharedPageData, { state: "shared" }>;

const UNTITLED = "Untitled";

/** The day in words, as the server renders it once (the page never hydrates). */
const dayOf = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/**
 * What a link shows, read-only (docs/screens.md#shared-page): a text, a file, or a project with its
 * media. Everything a person wrote is rendered as text (React escapes it), its line breaks kept by CSS.
 */
export function SharedView({ page }: { page: Shared }) {
  return (
    <SharedFrame>
      {page.content ? (
        <article className="card shared-card">
          <h1 className="shared-title">{page.content.title || UNTITLED}</h1>
          <p className="muted shared-meta">
            Shared text · updated <time dateTime={page.content.updatedAt}>{dayOf(page.content.updatedAt)}</time>
          </p>
          <div className="shared-text">{page.content.body}</div>
        </article>
      ) : null}
      {page.file ? (
        <article className="card shared-card">
          <h1 className="shared-title">{page.file.name || UNTITLED}</h1>
          <SharedMedia file={page.file} />
        </article>
      ) : null}
      {page.project ? (
        <article className="card shared-card">
          <h1 className="shared-title">{page.project.title || UNTITLED}</h1>
          <p className="muted shared-meta">Shared project</p>
          {page.project.description ? <p className="shared-text">{page.project.description}</p> : null}
          {page.project.media.length === 0 ? <p className="muted">No media attached.</p> : null}
          {page.project.media.map((media) => (
            <section key={media.id} className="shared-project-media">
              <h2>{SHARED_SLOT_LABELS[media.slot] ?? media.slot}</h2>
              <SharedMedia file={media} />
            </section>
          ))}
        </article>
      ) : null}
    </SharedFrame>
  );
}
