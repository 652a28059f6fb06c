import { formatPercent, formatSize } from "~/common/i18n/formats";
import { useT } from "~/components/ui/i18n";

export interface StorageUsageView {
  /** Files and text together: what the quota counts. */
  usedBytes: number;
  quotaBytes: number;
  /** The part of usedBytes that is text (content items' titles and bodies). */
  textBytes: number;
}

/** What the meter says: the share of the quota used (0-100), and the used bytes as files and as text. */
export function storageMeterNumbers(usage: StorageUsageView) {
  const percent = usage.quotaBytes > 0 ? Math.min(100, Math.round((usage.usedBytes / usage.quotaBytes) * 100)) : 100;
  const textBytes = Math.max(0, Math.min(usage.textBytes, usage.usedBytes));
  return { percent, mediaBytes: usage.usedBytes - textBytes, textBytes };
}

/**
 * How much of the storage quota (USER_STORAGE_QUOTA_MB) the person uses, as a <meter>: on the
 * dashboard, the library and the upload screens, so a 413 never comes as a surprise. Files and text
 * count together; the line says how much of each.
 */
export function StorageMeter({ usage }: { usage: StorageUsageView }) {
  const { t, language } = useT();
  const { percent, mediaBytes, textBytes } = storageMeterNumbers(usage);
  const size = (bytes: number) => formatSize(language, bytes);
  const shownPercent = formatPercent(language, percent / 100);
  return (
    <div className="storage-meter" data-testid="storage-meter">
      <label htmlFor="storage-meter">{t("Storage")}</label>
      <meter
        id="storage-meter"
        min={0}
        max={usage.quotaBytes}
        low={usage.quotaBytes * 0.75}
        high={usage.quotaBytes * 0.9}
        optimum={0}
        value={usage.usedBytes}
      >
        {shownPercent}
      </meter>
      <span className="muted">
        {t("{{used}} of {{quota}} used ({{percent}}): files {{files}}, text {{text}}", {
          used: size(usage.usedBytes),
          quota: size(usage.quotaBytes),
          percent: shownPercent,
          files: size(mediaBytes),
          text: size(textBytes),
        })}
      </span>
    </div>
  );
}
