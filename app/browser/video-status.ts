/** SPEC §4 Video generation: status texts, when the progress bar shows, its colour, and the polling limits. */
export const VIDEO_POLL_MS = 1000;
/** The job times out (on the screen) after more than this many polls. */
export const VIDEO_MAX_POLLS = 15;

export const VIDEO_STATUS_TEXT: Record<string, string> = {
  queued: "Queued...",
  processing: "Processing video...",
  finishing: "Finalizing...",
  completed: "✅ Completed!",
  error: "❌ Error generating video.",
  timeout: "⚠️ Timed out.",
};

export function videoStatusText(status: string): string {
  return VIDEO_STATUS_TEXT[status] ?? "Generating...";
}

export function showsProgressBar(status: string): boolean {
  return status === "queued" || status === "processing" || status === "finishing";
}

/** The bar's colour band: below 50%, below 90%, and the rest. */
export function progressTone(progress: number): "low" | "mid" | "high" {
  if (progress < 0.5) return "low";
  if (progress < 0.9) return "mid";
  return "high";
}

export function isFinished(status: string): boolean {
  return status === "completed" || status === "error" || status === "timeout";
}
