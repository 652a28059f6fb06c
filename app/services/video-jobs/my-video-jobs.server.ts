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

/** Cancelled at once; the runner holding it stops at its next heartbeat (this instance's: now). */
export async function cancelMyVideoJob(userId: string, id: string): Promise<void> {
  await ensureVideoJobRunner();
  await cancelVideoJob(userId, id);
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
