import { formatSize } from "~/common/i18n/formats";
import { hasExtension } from "~/common/media/media-names";
import { screenText } from "~/common/media/media-texts";
import type { FileAnswer, FileScreenKind } from "~/common/media/file-screen-kinds";
import { FlashMessage, OutcomeMessage, type Outcome } from "~/components/shell/flash-message";
import { MediaHeader } from "~/components/shell/page-header";
import type { StorageUsageView } from "~/components/shell/storage-meter";
import { useT } from "~/components/ui/i18n";
import { UploadCard } from "./upload-card";

/**
 * The frame of a file screen (Voices, Video Hub): the page's one <main>, its header, the upload card
 * (the API client's upload widget, with a progress bar) beside the list on wide screens, one column on
 * phones. `children` is the list's column; `after` follows the columns, still inside <main>.
 */
export function FilePage({
  kind,
  maxBytes,
  actionData,
  usage,
  outcome,
  children,
  after,
  confirm,
}: {
  kind: FileScreenKind;
  maxBytes: number;
  actionData: FileAnswer | undefined;
  /** The storage quota's use, shown as a meter under the upload form. */
  usage?: StorageUsageView;
  /** What the screen said last that is not a field's own error (a delete, a playback). */
  outcome: Outcome | null;
  children: React.ReactNode;
  after?: React.ReactNode;
  /** Without JavaScript, the confirmation panel of a delete (./confirm-panel.tsx), above the columns. */
  confirm?: React.ReactNode;
}) {
  const { texts } = kind;
  const { t, language } = useT();
  // The limit in the screen's language ("1,5 MiB" in German); the loader's maxLabel is its English.
  const maxLabel = formatSize(language, maxBytes);
  // What is not a field's own error (a delete, a playback); a plain form's answer too.
  const said = outcome ?? (actionData?.intent === "upload" || actionData?.intent === "rename" ? null : actionData);
  return (
    <main className="page media-page">
      <MediaHeader title={t(kind.title)} icon={kind.icon} />
      {confirm}

      <div className="workspace media-workspace">
        <div className="media-column">
          <UploadCard
            section={t(kind.uploadSection)}
            uploadUrl={kind.uploadUrl}
            fileLabel={t(kind.fileLabel)}
            accept={kind.accept}
            fileRequired={kind.fileRequired}
            hint={t(kind.hint, { limit: maxLabel })}
            maxBytes={maxBytes}
            maxLabel={maxLabel}
            texts={texts}
            // Voices take only names ending in .mp3 (the server also checks the content).
            refuse={(file) => (texts.onlyExtension && !hasExtension(file.name, kind.kind) ? texts.onlyExtension : null)}
            toastMs={kind.toastMs}
            answer={actionData?.intent === "upload" ? actionData : null}
            usage={usage}
            id={`${kind.kind}-upload-file`}
          />

          <FlashMessage />
          <OutcomeMessage outcome={said && { ...said, message: t(said.message), detail: screenText(t, said.detail) }} />
        </div>

        <div className="media-column">{children}</div>
      </div>

      {after}
    </main>
  );
}
