import { useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { UploadNetworkError, uploadWithProgress } from "~/browser/upload-progress";
import { UPLOAD_SUCCESSFUL } from "~/common/media/file-screen-kinds";
import { screenText, TOO_LARGE } from "~/common/media/media-texts";
import { DropZone } from "~/components/ui/drop-zone";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { UploadProgress } from "~/components/ui/upload-progress-bar";
import type { Outcome } from "~/components/shell/flash-message";
import { StorageMeter, type StorageUsageView } from "~/components/shell/storage-meter";
import { toast } from "~/components/shell/toasts";

export interface UploadCardProps {
  /** The card's accessible name, e.g. "Upload a voice clip" (this and the other labels come translated). */
  section: string;
  /** Where the script sends the file (the API, with a progress bar); without JavaScript the form posts to the screen. */
  uploadUrl: string;
  fileLabel: string;
  accept: string;
  /** Whether the browser asks for a file before the form is sent, or the card says so (`texts.selectFirst`). */
  fileRequired: boolean;
  /** The line under the form (kinds and limit). */
  hint: string;
  maxBytes: number;
  /** The limit as the screen's language writes it ("25 MiB"). */
  maxLabel: string;
  /** Catalogue keys (English): the card says them in the screen's language. */
  texts: {
    uploadFailed: string;
    /** The upload never got an answer. */
    uploadError: string;
    selectFirst?: string;
  };
  /** A refusal before sending (e.g. "Only MP3 files allowed" (docs/screens.md#validation-rules)), or null. */
  refuse?: (file: File) => string | null;
  toastMs?: number;
  /** The plain form's answer to a failed upload (JavaScript off). */
  answer?: Outcome | null;
  /** More fields of the form, before the picker (the Library's kind). */
  fields?: React.ReactNode;
  usage?: StorageUsageView;
  id?: string;
  /** A class of the screen's own for the card (the Library lays it out as one compact bar). */
  className?: string;
}

/**
 * The upload card of every screen that takes files: a drop zone, Upload, the progress (docs/screens.md#states-and-transitions) and
 * the storage meter. A failure is the picker's own error, shown once under it (no toast); a success
 * says UPLOAD_SUCCESSFUL as a toast, empties the picker and reloads the screen's list. Without
 * JavaScript the form posts to the screen's action, which redirects with the same text.
 */
export function UploadCard({
  section,
  uploadUrl,
  fileLabel,
  accept,
  fileRequired,
  hint,
  maxBytes,
  maxLabel,
  texts,
  refuse,
  toastMs,
  answer,
  fields,
  usage,
  id = "upload-file",
  className,
}: UploadCardProps) {
  const { t } = useT();
  const revalidator = useRevalidator();
  const fileInput = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  // The plain form's answer shows until the person does something else.
  const [error, setError] = useState<Outcome | null>(answer && !answer.ok ? answer : null);

  const upload = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const file = fileInput.current?.files?.[0];
    if (!file) {
      if (texts.selectFirst) setError({ ok: false, message: texts.selectFirst });
      return;
    }
    const refused = refuse?.(file);
    if (refused) return setError({ ok: false, message: refused });
    if (file.size > maxBytes)
      return setError({
        ok: false,
        message: texts.uploadFailed,
        detail: t(TOO_LARGE, { limit: maxLabel }),
      });
    const body = new FormData(form);
    body.delete("intent");
    setError(null);
    setProgress(0);
    try {
      const result = await uploadWithProgress<{ filename: string }>(uploadUrl, body, { onProgress: setProgress });
      if (!result.ok) return setError({ ok: false, message: texts.uploadFailed, detail: result.detail });
      toast.success(t(UPLOAD_SUCCESSFUL), toastMs ? { autoClose: toastMs } : undefined);
      // The picker (and its "Chosen: …") is emptied for the next file.
      form.reset();
      revalidator.revalidate();
    } catch (failure) {
      if (!(failure instanceof UploadNetworkError)) console.error(failure);
      setError({ ok: false, message: texts.uploadError });
    } finally {
      setProgress(null);
    }
  };

  return (
    <section className={className ? `card media-upload ${className}` : "card media-upload"} aria-label={section}>
      <form method="post" encType="multipart/form-data" className="media-upload-form" onSubmit={upload}>
        <input type="hidden" name="intent" value="upload" />
        {fields}
        <DropZone
          ref={fileInput}
          id={id}
          label={fileLabel}
          name="file"
          accept={accept}
          required={fileRequired}
          hint={t("Drop a file here, or choose one.")}
          onChoose={() => setError(null)}
          error={
            error ? (
              <>
                {t(error.message)}
                {error.detail ? <span className="message-detail">{screenText(t, error.detail)}</span> : null}
              </>
            ) : null
          }
        />
        <button type="submit" className="button button-primary" disabled={progress !== null}>
          <Icon name="cloud-upload" />
          {progress !== null ? t("Uploading...") : t("Upload")}
        </button>
      </form>
      <p className="muted media-hint">{hint}</p>
      <UploadProgress percent={progress} />
      {usage ? <StorageMeter usage={usage} /> : null}
    </section>
  );
}
