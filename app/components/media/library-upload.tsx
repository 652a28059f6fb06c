import { formatSize } from "~/common/i18n/formats";
import { useT } from "~/components/ui/i18n";
import type { Outcome } from "~/components/shell/flash-message";
import { UPLOAD_ERROR, UPLOAD_FAILED } from "./library-texts";
import { UploadCard } from "./upload-card";

/**
 * The library's upload bar (docs/screens.md, "Library: upload bar, filters, cards"): a photo, a camera
 * clip or a voice memo, its kind chosen in the form; the limit is the kinds' largest (the server holds
 * each to its own). Without JavaScript it posts to /library; `answer` is that post's refusal.
 */
export function LibraryUpload({ maxBytes, answer }: { maxBytes: number; answer: Outcome | null }) {
  const { t, language } = useT();
  const maxLabel = formatSize(language, maxBytes);
  return (
    <UploadCard
      section={t("Upload a file")}
      uploadUrl="/api/library/upload"
      fileLabel={t("Choose a file")}
      accept=".png,.webm,.m4a,image/png,video/webm,audio/mp4"
      fileRequired
      hint={t("A photo (PNG), a camera clip (WebM) or a voice memo (M4A), up to {{limit}}.", { limit: maxLabel })}
      maxBytes={maxBytes}
      maxLabel={maxLabel}
      texts={{ uploadFailed: UPLOAD_FAILED, uploadError: UPLOAD_ERROR }}
      answer={answer}
      id="library-upload-file"
      className="library-upload"
      fields={
        <label>
          {t("File type")}
          <select name="kind" defaultValue="photo">
            <option value="photo">{t("Photo (PNG)")}</option>
            <option value="clip">{t("Camera clip (WebM)")}</option>
            <option value="memo">{t("Voice memo (M4A)")}</option>
          </select>
        </label>
      }
    />
  );
}
