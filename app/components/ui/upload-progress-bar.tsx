import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";
import { formatPercent } from "~/common/i18n/formats";
/**
 * docs/screens.md#states-and-transitions Upload: "uploading (with a percent)". `label`: an English
 * catalogue key (msg()) or the caller's t().
 */
export function UploadProgress({ percent, label = msg("Uploading...") }: { percent: number | null; label?: string }) {
  const { t, language } = useT();
  if (percent === null) return null;
  return (
    <div className="upload-progress" role="status" aria-live="polite">
      <progress max={100} value={percent} aria-label={t("Upload progress")} />
      <span>
        {t(label)} {formatPercent(language, percent / 100)}
      </span>
    </div>
  );
}
