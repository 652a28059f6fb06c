import { isRecord } from "~/lib/screens/validation.server";
import { sniffVideo } from "~/lib/storage/file-signatures";
import type { RemoteCallConfig, ReplicateConfig } from "~/ai/config.server";
import { ProviderError } from "~/ai/errors.server";
import { checkDownloadUrl, downloadPin } from "~/ai/download-pin.server";
import { remoteBytes, remoteJson } from "~/ai/remote-http.server";
import type { RenderedVideo, VideoJobRun, VideoProvider } from "./video.server";

/**
 * A hosted text-to-video model on Replicate (create a prediction, then poll it):
 * POST {base}/models/{owner}/{name}/predictions {input: {prompt}} -> {id, status};
 * GET {base}/predictions/{id} -> {status: starting|processing|succeeded|failed|canceled, output}.
 * The prediction id is recorded on the job, so a restarted server goes on polling the same prediction.
 */
export const REPLICATE_PROVIDER_ID = "replicate";

const POLL_MS = 2000;
/** Where api.replicate.com delivers outputs (its `output` links). */
const REPLICATE_FILE_HOSTS = ["replicate.delivery", "*.replicate.delivery"];
/** Replicate gives no progress figure: the bar advances towards 85% over this typical run time. */
const TYPICAL_RUN_MS = 120_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => (signal.removeEventListener("abort", onAbort), resolve()), ms);
    const onAbort = () => (clearTimeout(timer), reject(signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
  });

export class ReplicateVideo implements VideoProvider {
  readonly id: string;
  readonly offline = false;

  constructor(
    private readonly config: ReplicateConfig,
    private readonly call: RemoteCallConfig,
    private readonly maxBytes: number,
    private readonly pollMs = POLL_MS,
  ) {
    this.id = `${REPLICATE_PROVIDER_ID}:${config.model}`;
  }

  private headers(): Record<string, string> {
    return { Authorization: `Bearer ${this.config.apiToken}`, "Content-Type": "application/json" };
  }

  async run(job: VideoJobRun): Promise<RenderedVideo> {
    const { signal } = job;
    let predictionId = job.resume.externalId;
    if (!predictionId) {
      const created = await remoteJson({
        capability: "video",
        provider: this.id,
        url: `${this.config.baseUrl}/models/${this.config.model}/predictions`,
        headers: this.headers(),
        body: JSON.stringify({ input: { prompt: job.prompt } }),
        call: this.call,
        signal,
      });
      if (!isRecord(created) || typeof created.id !== "string" || !/^[\w-]{1,100}$/.test(created.id)) {
        throw new ProviderError("video", this.id, "bad_response", "no prediction id");
      }
      predictionId = created.id;
      await job.report({ status: "queued", progress: Math.max(job.resume.progress, 0.05), externalId: predictionId });
    }

    const started = Date.now();
    let progress = Math.max(job.resume.progress, 0.05);
    for (;;) {
      const prediction = await remoteJson({
        capability: "video",
        provider: this.id,
        url: `${this.config.baseUrl}/predictions/${encodeURIComponent(predictionId)}`,
        headers: this.headers(),
        call: this.call,
        signal,
      });
      const status = isRecord(prediction) ? prediction.status : undefined;
      if (status === "succeeded") {
        await job.report({ status: "finishing", progress: Math.max(progress, 0.9) });
        const output = isRecord(prediction) ? prediction.output : undefined;
        // Only from Replicate's own hosts (its API's, replicate.delivery) or AI_DOWNLOAD_HOSTS.
        const pin = downloadPin(
          this.config.baseUrl,
          this.call,
          new URL(this.config.baseUrl).hostname === "api.replicate.com" ? REPLICATE_FILE_HOSTS : [],
        );
        const url = checkDownloadUrl(Array.isArray(output) ? output[0] : output, "video", this.id, pin);
        const { bytes } = await remoteBytes(
          { capability: "video", provider: this.id, url, call: this.call, signal, pin },
          this.maxBytes,
        );
        const contentType = sniffVideo(bytes.subarray(0, 4096));
        if (contentType !== "video/mp4" && contentType !== "video/webm" && contentType !== "video/quicktime") {
          throw new ProviderError("video", this.id, "bad_response", "the output is not an MP4, MOV or WebM video");
        }
        return {
          bytes,
          contentType,
          extension: contentType === "video/webm" ? "webm" : contentType === "video/quicktime" ? "mov" : "mp4",
        };
      }
      if (status === "failed" || status === "canceled") {
        throw new ProviderError("video", this.id, "rejected", `prediction ${status}`);
      }
      if (status !== "starting" && status !== "processing") {
        throw new ProviderError("video", this.id, "bad_response", "unknown prediction status");
      }
      if (status === "processing")
        progress = Math.max(progress, Math.min(0.85, 0.1 + (0.75 * (Date.now() - started)) / TYPICAL_RUN_MS));
      await job.report({ status: status === "starting" ? "queued" : "processing", progress });
      await sleep(this.pollMs, signal);
    }
  }
}
