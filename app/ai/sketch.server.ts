import type { GeneratedImage } from "./image.server";
import type { SketchStyle } from "~/shared/sketch-styles";

/** Sketch to image: a drawing (PNG) and a style in, an image out. */
export { DEFAULT_SKETCH_STYLE, SKETCH_STYLES, type SketchStyle } from "~/shared/sketch-styles";

/** What a remote image model is asked to make of the sketch. */
export const SKETCH_STYLE_PROMPTS: Record<SketchStyle, string> = {
  realistic: "Turn this sketch into a photorealistic image with natural light, keeping its composition.",
  cartoon: "Turn this sketch into a bright cartoon illustration with bold outlines and flat colours.",
  futuristic: "Turn this sketch into a futuristic sci-fi scene with neon glow, keeping its composition.",
  painting: "Turn this sketch into an expressive oil painting with visible brush strokes.",
  concept: "Turn this sketch into moody concept art for a film, keeping its composition.",
};

export interface SketchProvider {
  readonly id: string;
  readonly offline: boolean;
  stylise(png: Buffer, style: SketchStyle, signal?: AbortSignal): Promise<GeneratedImage>;
}
