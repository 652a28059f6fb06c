import { formatSize } from "./media-ui";

export interface StorageUsageView {
  usedBytes: number;
  quotaBytes: number;
}

/**
 * How much of the storage quota (USER_STORAGE_QUOTA_MB) the person uses, as a <meter>: on the
 * library and on the upload screens, so a 413 never comes as a surprise.
 */
export function StorageMeter({ usage }: { usage: StorageUsageView }) {
  const percent = usage.quotaBytes > 0 ? Math.min(100, Math.round((usage.usedBytes / usage.quotaBytes) * 100)) : 100;
  return (
    <div className="storage-meter" data-testid="storage-meter">
      <label htmlFor="storage-meter">Storage</label>
      <meter id="storage-meter" min={0} max={usage.quotaBytes} low={usage.quotaBytes * 0.75} high={usage.quotaBytes * 0.9} optimum={0} value={usage.usedBytes}>
        {percent}%
      </meter>
      <span className="muted">
        {formatSize(usage.usedBytes)} of {formatSize(usage.quotaBytes)} used ({percent}%)
      </span>
    </div>
  );
}
