import { useEffect, useRef } from "react";
import { Form, Link, useFetcher } from "react-router";
import {
  AUDIO_KINDS,
  IMAGE_KINDS,
  KIND_LABELS,
  librarySearch,
  type LibraryFileJson,
  type LibraryFilters,
} from "~/common/media/library-rules";
import type { MediaKind } from "~/common/media/media-names";
import { formatSize } from "~/common/i18n/formats";
import { screenText } from "~/common/media/media-texts";
import { confirmDelete, submitterOf } from "~/browser/confirm-delete";
import { deleteQuestion } from "~/common/delete-question";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import type { SharingOptions } from "~/common/sharing/share-link-view";
import { sharePanelUrl } from "~/common/sharing/share-link-view";
import { AttachChooser, AttachStatus } from "./library-attach";
import { FileDetails, LibraryTitle } from "./library-details";
import { toast } from "~/components/shell/toasts";
import { DELETE_CONFIRM, type LibraryAnswer } from "./library-texts";
import { ShareControl } from "~/components/sharing/share-dialog";
import type { clientAction } from "~/routes/library";

/** Kinds the AI tools make: their provenance is shown, "unknown" for files from before it was kept. */
const GENERATED_KINDS: readonly MediaKind[] = ["speech", "image", "aivideo", "sketch"];

function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function Preview({ file }: { file: LibraryFileJson }) {
  const { t } = useT();
  const { kind } = file;
  if (IMAGE_KINDS.includes(kind)) {
    return file.thumbnail_url ? (
      <img
        className="library-thumb"
        src={file.thumbnail_url}
        alt=""
        loading="lazy"
        decoding="async"
        width={160}
        height={120}
      />
    ) : null;
  }
  if (AUDIO_KINDS.includes(kind))
    return (
      <audio
        className="library-audio"
        src={file.url}
        controls
        preload="none"
        aria-label={t("Play {{name}}", { name: file.name })}
      />
    );
  // No poster is made on the server: the first frame, from the file's metadata, stands in for one.
  return (
    <video
      className="library-video"
      src={file.url}
      controls
      preload="metadata"
      aria-label={t("Play {{name}}", { name: file.name })}
    />
  );
}

/**
 * One file of the library: its preview, title, facts and Details, and its actions: download, rename (a
 * form on ?rename={id}), use as a sketch, delete (a dialog and a fetcher with JavaScript, the confirm
 * panel without) and attach to a project. All post to /library and come back to the same view.
 */
export function LibraryItem({
  file,
  hidden,
  filters,
  renaming,
  projects,
  sharing,
  actionData,
}: {
  file: LibraryFileJson & { title: string };
  hidden: boolean;
  filters: LibraryFilters;
  renaming: boolean;
  projects: { id: string; title: string }[];
  /** Share's choices; null when sharing is off (no control). */
  sharing: SharingOptions | null;
  actionData: LibraryAnswer | null;
}) {
  const { kind } = file;
  const { t, language } = useT();
  const fetcher = useFetcher<typeof clientAction>({ key: `library-delete-${file.id}` });
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || reported.current === fetcher.data) return;
    reported.current = fetcher.data;
    if (!fetcher.data.ok) toast.error(t(fetcher.data.message));
  }, [fetcher.state, fetcher.data, t]);

  // With JavaScript, Delete asks with a dialog and posts through a fetcher (the item hides at once).
  const onDelete = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const asked = { message: deleteQuestion(file.name, t), detail: t(DELETE_CONFIRM) };
    void confirmDelete(submitterOf(event), asked).then((confirmed) => {
      if (!confirmed) return;
      form.set("intent", "delete");
      form.set("enhanced", "1");
      form.set("confirmed", "1");
      void fetcher.submit(form, { method: "post", action: `/library${back}` });
    });
  };

  const facts = [
    t(KIND_LABELS[kind]),
    formatSize(language, file.size),
    file.width && file.height ? `${file.width}×${file.height}` : null,
    file.duration_ms ? durationText(file.duration_ms) : null,
  ].filter(Boolean);
  const back = librarySearch(filters);
  const renameLink = `/library${librarySearch(filters, { rename: file.id })}`;

  return (
    <li className="card library-item" data-testid="library-item" data-kind={kind} hidden={hidden}>
      <div className="library-preview">
        <Preview file={file} />
      </div>
      <LibraryTitle title={file.title} />
      <p className="library-facts muted">
        {facts.join(" · ")} ·{" "}
        <time dateTime={file.created_at}>
          {file.created_at.slice(0, 10)}
          <span className="library-clock"> {file.created_at.slice(11, 16)} UTC</span>
        </time>
      </p>
      <FileDetails file={file} title={file.title} generated={GENERATED_KINDS.includes(kind)} />

      {renaming ? (
        <Form method="post" action={renameLink} className="library-rename">
          <input type="hidden" name="intent" value="rename" />
          <input type="hidden" name="id" value={file.id} />
          <input type="hidden" name="back" value={back} />
          <label>
            {t("New name")}
            <input
              name="name"
              defaultValue={file.name}
              required
              maxLength={120}
              aria-invalid={actionData?.intent === "rename" && !actionData.ok ? true : undefined}
              aria-describedby={
                actionData?.intent === "rename" && !actionData.ok ? `rename-error-${file.id}` : undefined
              }
            />
          </label>
          {actionData?.intent === "rename" && !actionData.ok ? (
            <p className="field-error" id={`rename-error-${file.id}`} role="alert">
              {screenText(t, actionData.detail ?? actionData.message)}
            </p>
          ) : null}
          <button type="submit" className="button button-small button-primary">
            {t("Save name")}
          </button>
          <Link className="button button-small button-ghost" to={`/library${back}`}>
            {t("Cancel")}
          </Link>
        </Form>
      ) : null}

      <div className="library-actions">
        <a
          className="button button-small"
          href={file.url}
          download={file.name}
          aria-label={t("Download {{name}}", { name: file.name })}
          title={t("Download")}
        >
          <Icon name="download" />
          <span className="library-action-label">{t("Download")}</span>
        </a>
        {!renaming ? (
          <Link
            className="button button-small"
            to={renameLink}
            aria-label={t("Rename {{name}}", { name: file.name })}
            title={t("Rename")}
          >
            <Icon name="pencil" />
            <span className="library-action-label">{t("Rename")}</span>
          </Link>
        ) : null}
        {IMAGE_KINDS.includes(kind) ? (
          <Link
            className="button button-small"
            to={`/drawing?${new URLSearchParams({ from: file.id })}`}
            aria-label={t("Use {{name}} as a sketch", { name: file.name })}
            title={t("Use as a sketch")}
          >
            <Icon name="brush" />
            <span className="library-action-label">{t("Use as a sketch")}</span>
          </Link>
        ) : null}
        {sharing ? (
          <ShareControl
            kind="file"
            id={file.id}
            title={file.title}
            href={sharePanelUrl(`/library${back}`, file.id)}
            options={sharing}
            labelClassName="library-action-label"
          />
        ) : null}
        <Form method="post" action={`/library${back}`} onSubmit={onDelete}>
          <input type="hidden" name="id" value={file.id} />
          <input type="hidden" name="back" value={back} />
          <button
            type="submit"
            name="intent"
            value="delete"
            className="button button-small button-ghost"
            aria-label={t("Delete {{name}}", { name: file.name })}
          >
            <Icon name="trash-2" />
            <span className="library-action-label">{t("Delete")}</span>
          </button>
        </Form>
        {projects.length > 0 ? <AttachChooser file={file} back={back} projects={projects} /> : null}
      </div>
      {projects.length > 0 ? <AttachStatus fileId={file.id} /> : null}
    </li>
  );
}
