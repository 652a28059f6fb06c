/**
 * The video capability. A provider runs one job to the end and returns the file; on the way it
 * reports the job's state (docs/screens.md#states-and-transitions), which the runner records. A remote provider also reports its
 * own job id, so that after a restart the runner resumes following that job instead of starting over.
 */
export type VideoProgressStatus = "queued" | "processing" | "finishing";

export interface VideoProgress {
  status: VideoProgressStatus;
  /** 0..1, never going back. */
  progress: number;
  /** The provider's own id for the job (remote providers), kept for resuming. */
  externalId?: string;
}

export interface VideoJobRun {
  prompt: string;
  /** What an earlier, interrupted run of this job recorded. */
  resume: { progress: number; externalId: string | null };
  report(update: VideoProgress): Promise<void>;
  /** Aborted when the job times out or the server stops. */
  signal: AbortSignal;
}

export interface RenderedVideo {
  bytes: Buffer;
  contentType: string;
  /** Without the dot: webm, mp4. */
  extension: string;
}

export interface VideoProvider {
  readonly id: string;
  /** True while the capability runs locally: GET /api/health says test_mode. */
  readonly offline: boolean;
  run(job: VideoJobRun): Promise<RenderedVideo>;
}
