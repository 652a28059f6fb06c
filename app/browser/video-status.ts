import { msg, type Translator } from "~/common/i18n/translate";
import { detailText } from "./api-client";

/** docs/screens.md#states-and-transitions Video generation: status texts, when the progress bar shows, its colour, and the polling limits. */
export const VIDEO_POLL_MS = 1000;
/** The job times out (on the screen) after more than this many polls. */
export const VIDEO_MAX_POLLS = 15;

/** The English texts (catalogue keys): a screen shows `t(videoStatusText(status))`. */
export const VIDEO_STATUS_TEXT: Record<string, string> = {
  queued: msg("Queued..."),
  processing: msg("Processing video..."),
  finishing: msg("Finalizing..."),
  completed: msg("✅ Completed!"),
  error: msg("❌ Error generating video."),
  timeout: msg("⚠️ Timed out."),
  cancelled: msg("Cancelled."),
};

const GENERATING = msg("Generating...");

export function videoStatusText(status: string): string {
  return VIDEO_STATUS_TEXT[status] ?? GENERATING;
}

/*
 * Two of the API's refusals carry a value in their English `detail` (the /api contract stays English,
 * app/models/video-jobs): the screens read the value back to say them in the person's language. Every
 * other detail (the AI limits' refusal among them) is said by detailText; an unknown one stays English.
 */
const LIMIT_DETAIL = /^You already have (\d+) videos? being generated\. Wait for one to finish, then try again\.$/;
const ENDED_DETAIL = /^This video job has already ended \((\w+)\); only a queued or processing job can be cancelled\.$/;

/** A video job refusal's `detail` (an action's or the API's, in English), in the screen's language. */
export function videoRefusalText(t: Translator["t"], detail: string): string {
  const limit = LIMIT_DETAIL.exec(detail);
  if (limit) {
    return t("You already have {{count}} videos being generated. Wait for one to finish, then try again.", {
      count: Number(limit[1]),
    });
  }
  const ended = ENDED_DETAIL.exec(detail);
  if (ended) {
    return t("This video job has already ended ({{status}}); only a queued or processing job can be cancelled.", {
      status: ended[1],
    });
  }
  return detailText(t, detail);
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
