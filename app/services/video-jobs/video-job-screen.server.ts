import { data, redirect } from "react-router";
import { answersWithData, screenFailure, text } from "~/lib/screens/forms.server";
import { cancelMyVideoJob, moveMyVideoJob, retryMyVideoJob } from "./my-video-jobs.server";

/** The AI video screen's job-list intents (docs/screens.md#ai-video-jobs). */
export const VIDEO_JOB_INTENTS = ["cancel-job", "retry-job", "move-job"] as const;
export type VideoJobIntent = (typeof VIDEO_JOB_INTENTS)[number];

export const isVideoJobIntent = (intent: string): intent is VideoJobIntent =>
  (VIDEO_JOB_INTENTS as readonly string[]).includes(intent);

/**
 * Cancel, Retry and Up/Down from the AI video screen's list (docs/decisions/0075). Without JavaScript the
 * answer is a redirect back to the screen (a retry shows its new job, as a new generation does); a
 * fetcher gets data and the page's loaders run again. A refusal (gone, already ended, over the limits)
 * is said in the page with its status.
 */
export async function videoJobScreenAction(userId: string, intent: VideoJobIntent, form: FormData, url: URL) {
  const id = text(form.get("id"));
  const enhanced = answersWithData(form);
  try {
    if (intent === "retry-job") {
      const job = await retryMyVideoJob(userId, id);
      const shown = `/aivideo?job=${encodeURIComponent(job.id)}`;
      return enhanced ? data({ jobDone: intent, shown }) : redirect(shown);
    }
    if (intent === "cancel-job") await cancelMyVideoJob(userId, id);
    else await moveMyVideoJob(userId, id, text(form.get("before")) || null);
  } catch (error) {
    const failure = screenFailure(error);
    return data(
      { jobError: failure.detail ?? "That did not work. Reload the page and try again.", jobId: id },
      { status: failure.status },
    );
  }
  return enhanced ? data({ jobDone: intent }) : redirect(`/aivideo${url.search}`);
}
