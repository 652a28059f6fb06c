import { randomUUID } from "node:crypto";
import { requireStorageLeft } from "~/models/media/storage-quota.server";
import { DomainError } from "~/lib/domain-error";
import { withRootSpan } from "~/lib/observe/trace.server";
import { logOutage, outageOf } from "~/lib/outage.server";
import { withAiSlot } from "~/services/ai-limits.server";
import {
  claimJob,
  findClaimableJobs,
  heartbeat,
  markWaiting,
  type RunnerJob,
} from "~/models/video-jobs/video-job-queue.server";
import { createVideoJob, getVideoJob, VIDEO_JOB_LIMIT, type VideoJobView } from "~/models/video-jobs/video-job.server";
import { aiConfig } from "~/ai/config.server";
import { aiProviders } from "~/ai/providers.server";
import type { VideoProvider } from "~/ai/video/video.server";
import { ClaimLost, workVideoJob, type JobWorker } from "./video-job-work.server";

/**
 * Works AI video jobs inside the server process. Jobs are rows (app/models/video-jobs/video-job.server.ts), so
 * they outlive the process: every tick (1 s) the runner heartbeats the jobs it works and claims
 * unfinished jobs nobody works (new ones, or ones whose runner's heartbeat went stale because its
 * process stopped). A claimed job resumes: the local renderer re-renders what was done without
 * pausing, a remote job goes on polling the provider's job id it recorded. A job interrupted too
 * often ends in error, one running longer than the job timeout ends in timeout; none hangs. The
 * runner claims and schedules; a claimed job's work, to the status it ends in, is video-job-work.server.ts.
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

export class VideoJobRunner {
  readonly runnerId: string;
  private readonly tickMs: number;
  private readonly staleMs: number;
  private readonly maxActive: number;
  /** What each job's work is lent (app/services/video-jobs/video-job-work.server.ts). */
  private readonly worker: JobWorker;
  private readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private interval: ReturnType<typeof setInterval> | null = null;
  private started: Promise<void> | null = null;
  private ticking: Promise<void> | null = null;
  /** Set by stop: no pass claims a job until the next start. */
  private stopped = false;
  /** Passes failed in a row (the database out of reach), and when the next may run: backs off to 5 s. */
  private failedPasses = 0;
  private resumeAt = 0;

  constructor(provider: VideoProvider, options: RunnerOptions = {}) {
    this.runnerId = options.runnerId ?? randomUUID();
    this.tickMs = options.tickMs ?? 1000;
    this.staleMs = options.staleMs ?? 8000;
    this.maxActive = options.maxActive ?? 2;
    this.worker = {
      runnerId: this.runnerId,
      provider,
      maxAttempts: options.maxAttempts ?? 3,
      jobTimeoutMs: options.jobTimeoutMs ?? 600_000,
    };
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

  /**
   * No span of its own: an idle runner polls every tick, and a trace a second per instance would bury
   * the requests' (health probes make none either). Its SQL is traced only in a pass a request nudged
   * (as that request's); each job's claim and run are traces of their own.
   */
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
      const claimed = await withRootSpan("video-job claim", () => claimJob(job, this.runnerId), {
        "studio.video_job.id": job.id,
      });
      if (!claimed) continue;
      free--;
      this.launch({ ...job, attempts: job.attempts + 1, runner_id: this.runnerId });
    }
    await markWaiting(waiting);
  }

  /** The job's work is a trace of its own (its provider calls, progress, stored clip and end), not the pass's or a request's. */
  private launch(job: RunnerJob) {
    const controller = new AbortController();
    const attributes = { "studio.video_job.id": job.id, "studio.video_job.attempt": job.attempts };
    const done = withRootSpan("video-job run", () => workVideoJob(job, controller, this.worker), attributes).finally(
      () => this.active.delete(job.id),
    );
    this.active.set(job.id, { controller, done });
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
