import type { Automatic1111Config, RemoteCallConfig } from "~/ai/config.server";
import { ProviderError, type Capability } from "~/ai/errors.server";
import { diffusionAuthorization, sketchForDiffusion, storedPng } from "./image-bytes.server";
import type { GeneratedImage, ImageProvider } from "./image.server";
import { remoteJson } from "~/ai/remote-http.server";
import { DIFFUSION_NEGATIVE_PROMPT, SKETCH_STYLE_DIFFUSION, type SketchProvider } from "./sketch.server";
import type { SketchStyle } from "~/common/media/sketch-styles";
import { isRecord } from "~/lib/screens/validation.server";

/**
 * AUTOMATIC1111's Stable Diffusion web UI (and Forge, which keeps its API), started with `--api`:
 * prompts go to POST /sdapi/v1/txt2img, sketches to POST /sdapi/v1/img2img with the drawing as
 * `init_images` and the style as prompt words and a denoising strength. Both answer
 * `{"images": [base64 PNG, ...], "parameters", "info"}`; the first image is stored.
 */
export const AUTOMATIC1111_PROVIDER_ID = "automatic1111";

export class Automatic1111Images implements ImageProvider, SketchProvider {
  readonly id: string;
  readonly offline = false;
  constructor(
    private readonly config: Automatic1111Config,
    private readonly call: RemoteCallConfig,
    private readonly maxBytes: number,
  ) {
    this.id = config.model ? `${AUTOMATIC1111_PROVIDER_ID}:${config.model}` : AUTOMATIC1111_PROVIDER_ID;
  }

  /** What both calls share: one image, returned not saved on the server, the configured checkpoint if any. */
  private common() {
    return {
      negative_prompt: DIFFUSION_NEGATIVE_PROMPT,
      batch_size: 1,
      n_iter: 1,
      send_images: true,
      save_images: false,
      ...(this.config.model ? { override_settings: { sd_model_checkpoint: this.config.model } } : {}),
    };
  }

  private async post(
    capability: Capability,
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<GeneratedImage> {
    const answer = await remoteJson({
      capability,
      provider: this.id,
      url: `${this.config.baseUrl}${path}`,
      headers: { "Content-Type": "application/json", ...diffusionAuthorization(this.config.apiKey) },
      body: JSON.stringify(body),
      call: this.call,
      signal,
    });
    const images = isRecord(answer) && Array.isArray(answer.images) ? answer.images : [];
    const first = images[0];
    if (typeof first !== "string" || first === "")
      throw new ProviderError(capability, this.id, "bad_response", "no image in the answer");
    // Plain base64 as A1111 sends it; a data: URL prefix (some forks) is tolerated.
    return storedPng(
      Buffer.from(first.replace(/^data:image\/\w+;base64,/, ""), "base64"),
      capability,
      this.id,
      this.maxBytes,
    );
  }

  generate(prompt: string, signal?: AbortSignal): Promise<GeneratedImage> {
    return this.post(
      "image",
      "/sdapi/v1/txt2img",
      { prompt, width: this.config.width, height: this.config.height, ...this.common() },
      signal,
    );
  }

  async stylise(png: Buffer, style: SketchStyle, signal?: AbortSignal): Promise<GeneratedImage> {
    const sketch = await sketchForDiffusion(png, this.config.width, this.config.height).catch((error: Error) => {
      throw new ProviderError("sketch", this.id, "bad_response", `the sketch could not be prepared: ${error.message}`);
    });
    const { prompt, denoisingStrength } = SKETCH_STYLE_DIFFUSION[style];
    return this.post(
      "sketch",
      "/sdapi/v1/img2img",
      {
        init_images: [sketch.png.toString("base64")],
        prompt,
        denoising_strength: denoisingStrength,
        // The prepared sketch already has the size: "just resize" keeps it as it is.
        resize_mode: 0,
        width: sketch.width,
        height: sketch.height,
        ...this.common(),
      },
      signal,
    );
  }
}
