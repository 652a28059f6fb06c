/** docs/screens.md#states-and-transitions Upload: "uploading (with a percent)". */
export function UploadProgress({ percent, label = "Uploading..." }: { percent: number | null; label?: string }) {
  if (percent === null) return null;
  return (
    <div className="upload-progress" role="status" aria-live="polite">
      <progress max={100} value={percent} aria-label="Upload progress" />
      <span>
        {label} {percent}%
      </span>
    </div>
  );
}
