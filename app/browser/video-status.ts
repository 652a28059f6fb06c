/** docs/screens.md#states-and-transitions Video generation: status texts, when the progress bar shows, its colour, and the polling limits. */
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
  cancelled: "Cancelled.",
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
  return status === "completed" || status === "error" || status === "timeout" || status === "cancelled";
}

export type VideoPollEnd = "finished" | "error" | "timeout";

/**
 * the polling in docs/screens.md#states-and-transitions of one job: a poll every VIDEO_POLL_MS (the first one after a pause too); stops
 * when the job is finished or a poll fails ("error"), and once VIDEO_MAX_POLLS polls have not seen
 * it finish, the next tick ends it as "timeout" without polling again. Aborting `signal` stops it
 * silently (and cancels a poll in flight).
 */
export function pollVideoJob<T extends { status: string }>(options: {
  poll: (signal: AbortSignal) => Promise<T>;
  onUpdate: (status: T) => void;
  onEnd: (end: VideoPollEnd) => void;
  signal: AbortSignal;
}): void {
  const { poll, onUpdate, onEnd, signal } = options;
  let polls = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  const tick = async () => {
    if (signal.aborted) return;
    if (polls >= VIDEO_MAX_POLLS) return onEnd("timeout");
    polls++;
    let status: T;
    try {
      status = await poll(signal);
    } catch {
      if (!signal.aborted) onEnd("error");
      return;
    }
    if (signal.aborted) return;
    onUpdate(status);
    if (isFinished(status.status)) return onEnd("finished");
    timer = setTimeout(tick, VIDEO_POLL_MS);
  };
  if (!signal.aborted) timer = setTimeout(tick, VIDEO_POLL_MS);
}
