import { randomInt, randomUUID } from "node:crypto";
import type { ComfyUiConfig, ComfyUiWorkflow, RemoteCallConfig } from "~/ai/config.server";
import { ProviderError, type Capability } from "~/ai/errors.server";
import { diffusionAuthorization, sketchForDiffusion, storedPng } from "./image-bytes.server";
import type { GeneratedImage, ImageProvider } from "./image.server";
import { remoteBytes, remoteJson } from "~/ai/remote-http.server";
import { DIFFUSION_NEGATIVE_PROMPT, SKETCH_STYLE_DIFFUSION, type SketchProvider } from "./sketch.server";
import type { SketchStyle } from "~/common/media/sketch-styles";
import { isRecord } from "~/lib/screens/validation.server";

/**
 * ComfyUI: a workflow in its API format (AI_COMFYUI_WORKFLOW for prompts, AI_COMFYUI_SKETCH_WORKFLOW
 * for sketches; by default the two shipped in app/ai/workflows) with its placeholders filled in is
 * queued with POST /prompt {prompt, client_id} -> {prompt_id}; GET /history/{prompt_id} is polled
 * until the job is there (an error status fails it), and its first output image is fetched with
 * GET /view?filename=&subfolder=&type=. A sketch is first uploaded with POST /upload/image
 * (multipart `image`) -> {name, subfolder, type}, and its name fills {{image}}.
 *
 * Placeholders are filled inside the parsed workflow's string values, never in its text, so a prompt
 * with quotes or backslashes cannot change the workflow: {{prompt}}, {{negative_prompt}},
 * {{checkpoint}} (AI_COMFYUI_CHECKPOINT) and {{image}} anywhere in a string; a value that is exactly
 * {{seed}}, {{width}}, {{height}} or {{denoise}} becomes that number.
 */
export const COMFYUI_PROVIDER_ID = "comfyui";

type Filled = { text: Record<string, string>; numbers: Record<string, number> };

/** The workflow with its placeholders filled (a new object; the configured one is never changed). */
export function fillWorkflow(graph: unknown, values: Filled): unknown {
  if (typeof graph === "string") {
    const whole = /^\{\{(\w+)\}\}$/.exec(graph);
    if (whole && whole[1] in values.numbers) return values.numbers[whole[1]];
    return graph.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) =>
      name in values.text ? values.text[name] : placeholder,
    );
  }
  if (Array.isArray(graph)) return graph.map((item) => fillWorkflow(item, values));
  if (isRecord(graph))
    return Object.fromEntries(Object.entries(graph).map(([key, value]) => [key, fillWorkflow(value, values)]));
  return graph;
}

interface OutputImage {
  filename: string;
  subfolder: string;
  type: string;
}

/** The job's output image: one a save node wrote ("output") first, else any (a preview). */
function outputImageOf(entry: Record<string, unknown>): OutputImage | null {
  const images: OutputImage[] = [];
  for (const output of Object.values(isRecord(entry.outputs) ? entry.outputs : {})) {
    if (!isRecord(output) || !Array.isArray(output.images)) continue;
    for (const image of output.images) {
      if (isRecord(image) && typeof image.filename === "string" && image.filename) {
        images.push({
          filename: image.filename,
          subfolder: typeof image.subfolder === "string" ? image.subfolder : "",
          type: typeof image.type === "string" ? image.type : "output",
        });
      }
    }
  }
  return images.find((image) => image.type === "output") ?? images[0] ?? null;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export class ComfyUiImages implements ImageProvider, SketchProvider {
  readonly id: string;
  readonly offline = false;
  constructor(
    private readonly config: ComfyUiConfig,
    private readonly call: RemoteCallConfig,
    private readonly maxBytes: number,
  ) {
    this.id = `${COMFYUI_PROVIDER_ID}:${config.checkpoint}`;
  }

  private headers(json: boolean): Record<string, string> {
    return { ...(json ? { "Content-Type": "application/json" } : {}), ...diffusionAuthorization(this.config.apiKey) };
  }

  generate(prompt: string, signal?: AbortSignal): Promise<GeneratedImage> {
    return this.run(
      "image",
      this.config.textWorkflow,
      { prompt, width: this.config.width, height: this.config.height, denoise: 1 },
      signal,
    );
  }

  async stylise(png: Buffer, style: SketchStyle, signal?: AbortSignal): Promise<GeneratedImage> {
    const deadline = Date.now() + this.call.totalTimeoutMs;
    const sketch = await sketchForDiffusion(png, this.config.width, this.config.height).catch((error: Error) => {
      throw new ProviderError("sketch", this.id, "bad_response", `the sketch could not be prepared: ${error.message}`);
    });
    const form = new FormData();
    form.set(
      "image",
      new Blob([new Uint8Array(sketch.png)], { type: "image/png" }),
      `studio-sketch-${randomUUID()}.png`,
    );
    form.set("type", "input");
    const uploaded = await remoteJson({
      capability: "sketch",
      provider: this.id,
      url: `${this.config.baseUrl}/upload/image`,
      headers: this.headers(false),
      body: form,
      call: this.call,
      signal,
    });
    if (!isRecord(uploaded) || typeof uploaded.name !== "string" || !uploaded.name) {
      throw new ProviderError("sketch", this.id, "bad_response", "the upload answer has no name");
    }
    // LoadImage names an input by its path inside the input folder.
    const image =
      typeof uploaded.subfolder === "string" && uploaded.subfolder
        ? `${uploaded.subfolder}/${uploaded.name}`
        : uploaded.name;
    const { prompt, denoisingStrength } = SKETCH_STYLE_DIFFUSION[style];
    return this.run(
      "sketch",
      this.config.sketchWorkflow,
      { prompt, image, width: sketch.width, height: sketch.height, denoise: denoisingStrength },
      signal,
      deadline,
    );
  }

  private async run(
    capability: Capability,
    workflow: ComfyUiWorkflow,
    input: { prompt: string; image?: string; width: number; height: number; denoise: number },
    signal?: AbortSignal,
    deadline = Date.now() + this.call.totalTimeoutMs,
  ): Promise<GeneratedImage> {
    const failed = (failure: "timeout" | "bad_response", detail: string) =>
      new ProviderError(capability, this.id, failure, detail);
    // Each call gets what is left of the whole job's deadline.
    const within = (): RemoteCallConfig => {
      const left = deadline - Date.now();
      if (left <= 0) throw failed("timeout", "the job did not finish before the overall deadline");
      return { ...this.call, totalTimeoutMs: left };
    };
    const graph = fillWorkflow(workflow.graph, {
      text: {
        prompt: input.prompt,
        negative_prompt: DIFFUSION_NEGATIVE_PROMPT,
        checkpoint: this.config.checkpoint,
        ...(input.image ? { image: input.image } : {}),
      },
      // ComfyUI caches a node whose inputs did not change: a fresh seed makes each request a new picture.
      numbers: { seed: randomInt(0, 2 ** 48 - 1), width: input.width, height: input.height, denoise: input.denoise },
    });
    const queued = await remoteJson({
      capability,
      provider: this.id,
      url: `${this.config.baseUrl}/prompt`,
      headers: this.headers(true),
      body: JSON.stringify({ prompt: graph, client_id: randomUUID() }),
      call: within(),
      signal,
    });
    const promptId =
      isRecord(queued) && typeof queued.prompt_id === "string" && queued.prompt_id ? queued.prompt_id : null;
    if (!promptId) throw failed("bad_response", "the queue answer has no prompt_id");

    // The job appears in the history once it has run (or failed).
    let entry: Record<string, unknown> | null = null;
    while (!entry) {
      const history = await remoteJson({
        capability,
        provider: this.id,
        url: `${this.config.baseUrl}/history/${encodeURIComponent(promptId)}`,
        headers: this.headers(false),
        call: within(),
        signal,
      });
      if (!isRecord(history)) throw failed("bad_response", "the history answer is not an object");
      const found = history[promptId];
      if (isRecord(found)) {
        const status = isRecord(found.status) ? found.status : {};
        if (status.status_str === "error") throw failed("bad_response", "the job reported an execution error");
        if (status.completed !== false) entry = found;
      }
      if (!entry) {
        const left = deadline - Date.now();
        if (left <= 0) throw failed("timeout", "the job did not finish before the overall deadline");
        await sleep(Math.min(this.config.pollIntervalMs, left), signal);
      }
    }
    const output = outputImageOf(entry);
    if (!output) throw failed("bad_response", "the job has no output image");
    const query = new URLSearchParams({ filename: output.filename, subfolder: output.subfolder, type: output.type });
    const { bytes } = await remoteBytes(
      {
        capability,
        provider: this.id,
        url: `${this.config.baseUrl}/view?${query}`,
        headers: this.headers(false),
        call: within(),
        signal,
      },
      this.maxBytes,
    );
    return storedPng(bytes, capability, this.id, this.maxBytes);
  }
}
