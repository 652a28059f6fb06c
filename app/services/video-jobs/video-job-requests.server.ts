import { data } from "react-router";
import { answerEnhanced } from "~/lib/screens/enhanced-answer.server";
import { screenFailure, text } from "~/lib/screens/forms.server";
import { recordVideoJobFinished } from "~/lib/observe/metrics.server";
import { msg } from "~/common/i18n/translate";

import {
  cancelVideoJob,
  listVideoJobsWithPlace,
  moveVideoJob,
  retryablePrompt,
  type VideoJobListItem,
} from "~/models/video-jobs/video-job-control.server";
import type { VideoJobView } from "~/models/video-jobs/video-job.server";
import { ensureVideoJobRunner, nudgeVideoJobRunner, submitVideoJob } from "./video-job-runner.server";

/**
 * The person's controls over their video jobs, for the API and the AI video screen alike
 * (docs/decisions/0075). Each first makes sure this process's runner works, as the other doors do.
 */
export async function listMyVideoJobs(userId: string): Promise<VideoJobListItem[]> {
  await ensureVideoJobRunner();
  return listVideoJobsWithPlace(userId);
}

/**
 * Cancelled at once; the runner holding it stops at its next heartbeat (this instance's: now). Counted
 * as finished here, where it ends: the runner then finds it ended and ends nothing.
 */
export async function cancelMyVideoJob(userId: string, id: string): Promise<void> {
  await ensureVideoJobRunner();
  await cancelVideoJob(userId, id);
  recordVideoJobFinished("cancelled");
  nudgeVideoJobRunner();
}

/** A new job with the failed or cancelled one's prompt, under the same limits as any new job. */
export async function retryMyVideoJob(userId: string, id: string): Promise<VideoJobView> {
  const prompt = await retryablePrompt(userId, id);
  return submitVideoJob(userId, prompt);
}

export async function moveMyVideoJob(userId: string, id: string, before: string | null): Promise<void> {
  await ensureVideoJobRunner();
  await moveVideoJob(userId, id, before);
}

/** A refusal without a detail of its own (the screen shows it translated). */
export const JOB_ACTION_FAILED = msg("That did not work. Reload the page and try again.");

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
  try {
    if (intent === "retry-job") {
      const job = await retryMyVideoJob(userId, id);
      const shown = `/aivideo?job=${encodeURIComponent(job.id)}`;
      return answerEnhanced(form, { data: { jobDone: intent, shown }, redirectTo: shown });
    }
    if (intent === "cancel-job") await cancelMyVideoJob(userId, id);
    else await moveMyVideoJob(userId, id, text(form.get("before")) || null);
  } catch (error) {
    const failure = screenFailure(error);
    return data({ jobError: failure.detail ?? JOB_ACTION_FAILED, jobId: id }, { status: failure.status });
  }
  return answerEnhanced(form, { data: { jobDone: intent }, redirectTo: `/aivideo${url.search}` });
}
