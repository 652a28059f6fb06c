import { storeGenerated, slugOf } from "~/models/media/ai-media.server";
import { deleteMedia } from "~/models/media/media.server";
import { DomainError } from "~/lib/domain-error";
import { recordVideoJobFinished } from "~/lib/observe/metrics.server";
import { logOutage, outageOf } from "~/lib/outage.server";
import { providerAndModel } from "~/services/media/generation.server";
import { observedProviderCall } from "~/services/provider-failure.server";
import { finishJob, recordProgress, type RunnerJob } from "~/models/video-jobs/video-job-queue.server";
import { ProviderError, type ProviderFailure } from "~/ai/errors.server";
import type { VideoProvider } from "~/ai/video/video.server";

/**
 * The work of one claimed AI video job, from the provider's render to the status it ends in
 * (app/services/video-jobs/video-job-runner.server.ts claims jobs and hands each here). A job ends
 * completed (its clip stored), error or timeout; a job whose claim was lost, or that an outage
 * interrupted, is left unfinished for a runner to take over.
 */

/** Why a job's work was stopped from the outside. */
class JobTimedOut extends Error {}
export class ClaimLost extends Error {}

/** Safe texts for a failed job: what went wrong, never the provider's own words. */
const FAILURE_REASONS: Record<ProviderFailure, string> = {
  timeout: "The video provider did not answer in time",
  unavailable: "The video provider is unavailable",
  rejected: "The video provider refused the job",
  bad_response: "The video provider returned an unusable result",
  not_configured: "No video provider is configured",
};

/** What the runner lends the work: who it is, its provider and its limits. */
export interface JobWorker {
  runnerId: string;
  provider: VideoProvider;
  /** Starts of one job (the first run and the resumes after interruptions). */
  maxAttempts: number;
  jobTimeoutMs: number;
}

type Outcome = Parameters<typeof finishJob>[2];

/**
 * Ends the job if this runner still holds it. Counted in the metrics only when this call ended it, so
 * a job cancelled, taken over or deleted meanwhile (already counted where that happened) is not
 * counted twice.
 */
async function finish(job: RunnerJob, runnerId: string, outcome: Outcome): Promise<boolean> {
  const ended = await finishJob(job.id, runnerId, outcome);
  if (ended) recordVideoJobFinished(outcome.status);
  return ended;
}

/** Works `job` until it ends or `controller` stops it (a lost claim, the runner stopping, the job timeout). */
export async function workVideoJob(job: RunnerJob, controller: AbortController, worker: JobWorker): Promise<void> {
  const { runnerId, provider } = worker;
  const { signal } = controller;
  const end = async (outcome: Outcome) => {
    await finish(job, runnerId, outcome).catch((error) =>
      console.error(`[video-jobs] could not end job ${job.id}`, error),
    );
  };
  if (job.attempts > worker.maxAttempts) {
    return end({ status: "error", error: "The job was interrupted too many times" });
  }
  const remaining = worker.jobTimeoutMs - (Date.now() - Date.parse(job.created_at));
  if (remaining <= 0) return end({ status: "timeout", error: "The video took too long to generate" });
  const timer = setTimeout(() => controller.abort(new JobTimedOut()), remaining);
  timer.unref();

  // A job begun by another provider (the configuration changed) starts afresh with this one.
  const sameProvider = job.provider === provider.id;
  try {
    // One AI request, as the other capabilities' (an `ai video` span, its duration and outcome); what
    // it throws reaches the catch below unchanged.
    const video = await observedProviderCall(
      "video",
      provider.id,
      () =>
        provider.run({
          prompt: job.prompt,
          resume: sameProvider
            ? { progress: job.progress, externalId: job.external_id }
            : { progress: 0, externalId: null },
          signal,
          report: async (update) => {
            if (signal.aborted) throw signal.reason;
            if (!(await recordProgress(job.id, runnerId, update)))
              controller.abort(new ClaimLost("job taken over or deleted"));
            if (signal.aborted) throw signal.reason;
          },
        }),
      signal,
    );
    if (signal.aborted) throw signal.reason;
    const stored = await storeGenerated(job.user_id, "aivideo", video.bytes, `ai-video-${slugOf(job.prompt)}`, {
      prompt: job.prompt,
      ...providerAndModel(provider.id),
      source: { type: "job", id: job.id },
    });
    if (!(await finish(job, runnerId, { status: "completed", mediaId: stored.file.id }))) {
      // The job was taken over or deleted meanwhile: the clip has no job to belong to.
      await deleteMedia(job.user_id, "aivideo", stored.file.name).catch(() => {});
    }
  } catch (error) {
    const reason = signal.aborted ? signal.reason : error;
    if (reason instanceof ClaimLost) return;
    if (reason instanceof JobTimedOut) return end({ status: "timeout", error: "The video took too long to generate" });
    if (reason instanceof ProviderError) {
      console.error(`[video-jobs] job ${job.id}: ${reason.message}`);
      return end({
        status: reason.failure === "timeout" ? "timeout" : "error",
        error: FAILURE_REASONS[reason.failure],
      });
    }
    // The database or the store went away mid-job: nothing is decided about the job (it could not be
    // written anyway). It stays unfinished, its heartbeat goes stale, and a runner takes it over and
    // resumes it once the dependency is back (or ends it after maxAttempts starts).
    const outage = outageOf(reason);
    if (outage) {
      logOutage(outage);
      console.error(`[video-jobs] job ${job.id} was interrupted by an outage; it resumes when taken over`);
      return;
    }
    // Past the storage quota the clip is not kept; the job says why (the style of docs/screens.md#error-messages, no provider text).
    if (reason instanceof DomainError && reason.status === 413) return end({ status: "error", error: reason.detail });
    console.error(`[video-jobs] job ${job.id} failed`, error);
    return end({ status: "error", error: "The video could not be generated" });
  } finally {
    clearTimeout(timer);
  }
}
