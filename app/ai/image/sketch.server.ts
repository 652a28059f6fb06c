import type { GeneratedImage } from "./image.server";
import type { SketchStyle } from "~/common/media/sketch-styles";

// Sketch to image: a drawing (PNG) and a style in, an image out (the styles: app/common/media/sketch-styles.ts).

/** What a remote image model is asked to make of the sketch. */
export const SKETCH_STYLE_PROMPTS: Record<SketchStyle, string> = {
  realistic: "Turn this sketch into a photorealistic image with natural light, keeping its composition.",
  cartoon: "Turn this sketch into a bright cartoon illustration with bold outlines and flat colours.",
  futuristic: "Turn this sketch into a futuristic sci-fi scene with neon glow, keeping its composition.",
  painting: "Turn this sketch into an expressive oil painting with visible brush strokes.",
  concept: "Turn this sketch into moody concept art for a film, keeping its composition.",
};

/**
 * What a diffusion server (AUTOMATIC1111 img2img, ComfyUI) makes of the sketch: the style as prompt
 * words, and how far it may stray from the drawing (denoising strength: 0 keeps the sketch, 1 ignores it).
 * A rough sketch needs a lot of freedom to become a photo; a cartoon keeps closer to its lines.
 */
export const SKETCH_STYLE_DIFFUSION: Record<SketchStyle, { prompt: string; denoisingStrength: number }> = {
  realistic: { prompt: "photorealistic photograph, natural light, detailed, sharp focus", denoisingStrength: 0.75 },
  cartoon: { prompt: "bright cartoon illustration, bold clean outlines, flat colours", denoisingStrength: 0.6 },
  futuristic: {
    prompt: "futuristic sci-fi scene, neon glow, cyberpunk city lights, highly detailed",
    denoisingStrength: 0.7,
  },
  painting: {
    prompt: "expressive oil painting, visible brush strokes, canvas texture, rich colours",
    denoisingStrength: 0.65,
  },
  concept: { prompt: "moody cinematic concept art, dramatic lighting, matte painting", denoisingStrength: 0.7 },
};

/** What diffusion servers are asked to avoid (their usual failure modes). */
export const DIFFUSION_NEGATIVE_PROMPT = "blurry, low quality, distorted, deformed, watermark, text, signature";

export interface SketchProvider {
  readonly id: string;
  readonly offline: boolean;
  stylise(png: Buffer, style: SketchStyle, signal?: AbortSignal): Promise<GeneratedImage>;
}
