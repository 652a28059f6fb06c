/*
 * The media screens' small pieces. The messages live in ./flash-message and the header in
 * ./page-header (the login page takes FlashMessage alone, without the header and its icons).
 */
export { FlashMessage, OutcomeMessage, type Outcome } from "~/components/shell/flash-message";
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

/** Kept here for screens that import it with the other media pieces (it lives in ./page-header). */
export { MediaHeader } from "~/components/shell/page-header";
