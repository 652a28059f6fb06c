import { randomUUID } from "node:crypto";
import { storeGenerated, slugOf } from "~/models/media/ai-media.server";
import { deleteMedia } from "~/models/media/media.server";
import { requireStorageLeft } from "~/models/media/storage-quota.server";
import { DomainError } from "~/lib/domain-error";
import { logOutage, outageOf } from "~/lib/outage.server";
import { providerAndModel } from "~/services/media/generation.server";
import { withAiSlot } from "~/services/ai-limits.server";
import {
  claimJob,
  findClaimableJobs,
  finishJob,
  heartbeat,
  markWaiting,
  recordProgress,
  type RunnerJob,
} from "~/models/video-jobs/video-job-queue.server";
import { createVideoJob, getVideoJob, VIDEO_JOB_LIMIT, type VideoJobView } from "~/models/video-jobs/video-job.server";
import { aiConfig } from "~/ai/config.server";
import { ProviderError, type ProviderFailure } from "~/ai/errors.server";
import { aiProviders } from "~/ai/providers.server";
import type { VideoProvider } from "~/ai/video/video.server";

/**
 * Works AI video jobs inside the server process. Jobs are rows (app/models/video-jobs/video-job.server.ts), so
 * they outlive the process: every tick (1 s) the runner heartbeats the jobs it works and claims
 * unfinished jobs nobody works (new ones, or ones whose runner's heartbeat went stale because its
 * process stopped). A claimed job resumes: the local renderer re-renders what was done without
 * pausing, a remote job goes on polling the provider's job id it recorded. A job interrupted too
 * often ends in error, one running longer than the job timeout ends in timeout; none hangs.
 *
 * One runner per process: the server's life cycle starts and stops it (startVideoJobRunner,
 * stopVideoJobRunner); until then the first request that touches video jobs (or health) starts it.
 * Nothing starts on import.
 */
export interface RunnerOptions {
  runnerId?: string;
  tickMs?: number;
  /** A job whose heartbeat is older than this is taken over. */
  staleMs?: number;
  /** Jobs worked at once by this process. */
  maxActive?: number;
  /** Starts of one job (the first run and the resumes after interruptions). */
  maxAttempts?: number;
  jobTimeoutMs?: number;
}

/** The longest wait between passes while they fail. */
export const MAX_BACKOFF_MS = 5000;

/** Why a job's work was stopped from the outside. */
class JobTimedOut extends Error {}
class ClaimLost extends Error {}

/** Safe texts for a failed job: what went wrong, never the provider's own words. */
const FAILURE_REASONS: Record<ProviderFailure, string> = {
  timeout: "The video provider did not answer in time",
  unavailable: "The video provider is unavailable",
  rejected: "The video provider refused the job",
  bad_response: "The video provider returned an unusable result",
  not_configured: "No video provider is configured",
};

export class VideoJobRunner {
  readonly runnerId: string;
  private readonly tickMs: number;
  private readonly staleMs: number;
  private readonly maxActive: number;
  private readonly maxAttempts: number;
  private readonly jobTimeoutMs: number;
  private readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private interval: ReturnType<typeof setInterval> | null = null;
  private started: Promise<void> | null = null;
  private ticking: Promise<void> | null = null;
  /** Set by stop: no pass claims a job until the next start. */
  private stopped = false;
  /** Passes failed in a row (the database out of reach), and when the next may run: backs off to 5 s. */
  private failedPasses = 0;
  private resumeAt = 0;

  constructor(
    private readonly provider: VideoProvider,
    options: RunnerOptions = {},
  ) {
    this.runnerId = options.runnerId ?? randomUUID();
    this.tickMs = options.tickMs ?? 1000;
    this.staleMs = options.staleMs ?? 8000;
    this.maxActive = options.maxActive ?? 2;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.jobTimeoutMs = options.jobTimeoutMs ?? 600_000;
  }

  /** Starts ticking; resolves after the first tick, so interrupted jobs are already taken over. */
  start(): Promise<void> {
    if (!this.started) {
      this.stopped = false;
      this.interval = setInterval(() => void this.tick(), this.tickMs);
      this.interval.unref();
      this.started = this.tick();
    }
    return this.started;
  }

  /**
   * Stops claiming, lets the pass in progress end, then stops the work in hand: a stopped job keeps
   * its row and is taken over once its heartbeat is stale, by the next start or another process.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.interval) clearInterval(this.interval);
    this.interval = null;
    this.started = null;
    await this.ticking;
    const running = [...this.active.values()];
    for (const { controller } of running) controller.abort(new ClaimLost("runner stopped"));
    await Promise.allSettled(running.map(({ done }) => done));
  }

  /**
   * One pass: heartbeat, take over what nobody works, say "queued" for what must wait. Passes never
   * overlap. After a failed pass (the database out of reach) the next waits, doubling from one tick to
   * at most MAX_BACKOFF_MS, so an outage costs a try every few seconds and work resumes soon after.
   */
  tick(): Promise<void> {
    if (this.stopped || Date.now() < this.resumeAt) return Promise.resolve();
    this.ticking ??= this.pass()
      .then(
        () => {
          this.failedPasses = 0;
          this.resumeAt = 0;
        },
        (error) => {
          const outage = outageOf(error);
          if (outage) logOutage(outage);
          else console.error("[video-jobs] runner pass failed", error);
          this.failedPasses++;
          this.resumeAt = Date.now() + Math.min(this.tickMs * 2 ** (this.failedPasses - 1), MAX_BACKOFF_MS);
        },
      )
      .finally(() => (this.ticking = null));
    return this.ticking;
  }

  private async pass(): Promise<void> {
    // A job cancelled by its owner (on any instance) is no longer held: its render stops here, within a tick.
    for (const id of await heartbeat(this.runnerId, [...this.active.keys()]))
      this.active.get(id)?.controller.abort(new ClaimLost("job cancelled, ended or taken over"));
    const staleBefore = new Date(Date.now() - this.staleMs).toISOString();
    const candidates = await findClaimableJobs(staleBefore, this.maxActive + 20);
    let free = this.maxActive - this.active.size;
    const waiting: string[] = [];
    for (const job of candidates) {
      if (this.stopped) break;
      if (this.active.has(job.id)) continue;
      if (free <= 0) {
        if (job.status === "starting") waiting.push(job.id);
        continue;
      }
      if (!(await claimJob(job, this.runnerId))) continue;
      free--;
      this.launch({ ...job, attempts: job.attempts + 1, runner_id: this.runnerId });
    }
    await markWaiting(waiting);
  }

  private launch(job: RunnerJob) {
    const controller = new AbortController();
    const done = this.work(job, controller).finally(() => this.active.delete(job.id));
    this.active.set(job.id, { controller, done });
  }

  private async work(job: RunnerJob, controller: AbortController): Promise<void> {
    const { signal } = controller;
    const end = async (outcome: Parameters<typeof finishJob>[2]) => {
      await finishJob(job.id, this.runnerId, outcome).catch((error) =>
        console.error(`[video-jobs] could not end job ${job.id}`, error),
      );
    };
    if (job.attempts > this.maxAttempts) {
      return end({ status: "error", error: "The job was interrupted too many times" });
    }
    const remaining = this.jobTimeoutMs - (Date.now() - Date.parse(job.created_at));
    if (remaining <= 0) return end({ status: "timeout", error: "The video took too long to generate" });
    const timer = setTimeout(() => controller.abort(new JobTimedOut()), remaining);
    timer.unref();

    // A job begun by another provider (the configuration changed) starts afresh with this one.
    const sameProvider = job.provider === this.provider.id;
    try {
      const video = await this.provider.run({
        prompt: job.prompt,
        resume: sameProvider
          ? { progress: job.progress, externalId: job.external_id }
          : { progress: 0, externalId: null },
        signal,
        report: async (update) => {
          if (signal.aborted) throw signal.reason;
          if (!(await recordProgress(job.id, this.runnerId, update)))
            controller.abort(new ClaimLost("job taken over or deleted"));
          if (signal.aborted) throw signal.reason;
        },
      });
      if (signal.aborted) throw signal.reason;
      const stored = await storeGenerated(job.user_id, "aivideo", video.bytes, `ai-video-${slugOf(job.prompt)}`, {
        prompt: job.prompt,
        ...providerAndModel(this.provider.id),
        source: { type: "job", id: job.id },
      });
      if (!(await finishJob(job.id, this.runnerId, { status: "completed", mediaId: stored.file.id }))) {
        // The job was taken over or deleted meanwhile: the clip has no job to belong to.
        await deleteMedia(job.user_id, "aivideo", stored.file.name).catch(() => {});
      }
    } catch (error) {
      const reason = signal.aborted ? signal.reason : error;
      if (reason instanceof ClaimLost) return;
      if (reason instanceof JobTimedOut)
        return end({ status: "timeout", error: "The video took too long to generate" });
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
}

let processRunner: VideoJobRunner | null = null;
/** Set by stopVideoJobRunner: a late request must not start the runner again during shutdown. */
let stoppedByLifeCycle = false;

/**
 * The process's runner, started on first use (request paths call this until the server entry starts
 * it); resolves once interrupted jobs have been taken over.
 */
export function ensureVideoJobRunner(): Promise<void> {
  if (stoppedByLifeCycle) return Promise.resolve();
  processRunner ??= new VideoJobRunner(aiProviders().video, { jobTimeoutMs: aiConfig().videoJobTimeoutMs });
  return processRunner.start();
}

/** Starts the process's runner (the server entry, at start); a failed first pass is logged, not thrown. */
export function startVideoJobRunner(): void {
  stoppedByLifeCycle = false;
  ensureVideoJobRunner().catch((error) => console.error("[video-jobs] the runner did not start", error));
}

/** Stops the process's runner (at shutdown): the current pass ends, nothing more is claimed, and the job in hand resumes on the next start. */
export async function stopVideoJobRunner(): Promise<void> {
  stoppedByLifeCycle = true;
  await processRunner?.stop();
}

/**
 * A new job for the person, picked up at once (every door: /api/aivideo, the creative-tools door and
 * the screen). A person who already has VIDEO_MAX_ACTIVE_JOBS unfinished gets a 429 DomainError.
 */
export async function submitVideoJob(userId: string, prompt: string): Promise<VideoJobView> {
  await ensureVideoJobRunner();
  await requireStorageLeft(userId);
  // A new job is one of the person's AI requests (ai-limits.server); the work itself is bounded by
  // VIDEO_MAX_ACTIVE_JOBS unfinished jobs per person, not by a slot. A create that limit refuses counts nothing.
  const job = await withAiSlot(
    userId,
    "video",
    () => createVideoJob(userId, prompt, aiProviders().video.id, { maxUnfinished: aiConfig().videoMaxActiveJobs }),
    { refundWhen: (error) => error instanceof DomainError && error.code === VIDEO_JOB_LIMIT },
  );
  void processRunner?.tick();
  return job;
}

/** A pass now rather than at the next tick: a cancelled job held here stops at once, a freed slot is filled. */
export function nudgeVideoJobRunner(): void {
  void processRunner?.tick();
}

/** GET /api/aivideo/status/{id}: the person's job (undefined when unknown or another user's). */
export async function readVideoJob(userId: string, id: string): Promise<VideoJobView | undefined> {
  await ensureVideoJobRunner();
  return getVideoJob(userId, id);
}
