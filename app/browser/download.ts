/** Saving what the browser made (photos, videos, memos) as files, with names that sort by time. */

/** "2026-01-15-120405" in local time: readable, sortable and safe in every file system. */
export function fileTimestamp(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}-` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`
  );
}

/** e.g. "camera-matrix-2026-01-15-120405.png", "voice-memo-2026-01-15-120405.m4a". */
export function captureFilename(prefix: string, date: Date, extension: string): string {
  return `${prefix}-${fileTimestamp(date)}.${extension}`;
}

/**
 * Downloads a Blob through a temporary <a download>. The object URL is released later: revoking it
 * at once can cancel the download in some browsers.
 */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The canvas as a PNG Blob (docs/screens.md#constants-and-limits: photos are PNG). */
export function canvasToPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The canvas could not be encoded"))), "image/png");
  });
}
