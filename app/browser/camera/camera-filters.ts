/**
 * The camera filters of docs/screens.md#constants-and-limits, drawn onto a 2D canvas frame by frame so that what the preview
 * shows is exactly what a photo or a video records. Most looks are a canvas `filter` (CSS filter
 * functions, done natively by the browser) plus colour layers composited on top; the looks CSS
 * cannot express (the thermal palette of infra) map pixels in JavaScript.
 *
 * Here the filters themselves: their names and labels, each one's recipe, and the pixel maps, all pure
 * (they run in Node, in the unit tests). Drawing a frame with one is ./filter-drawing.ts.
 */
import { msg } from "~/common/i18n/translate";

export const CAMERA_FILTERS = [
  "matrix",
  "neon",
  "bw",
  "warm",
  "cyber",
  "infra",
  "dreamy",
  "vintage",
  "purple",
  "none",
] as const;
export type CameraFilter = (typeof CAMERA_FILTERS)[number];

/** docs/screens.md#constants-and-limits: Camera V2 offers the first five plus none, matrix by default. */
export const CAMERA_V2_FILTERS = [
  "matrix",
  "neon",
  "bw",
  "warm",
  "cyber",
  "none",
] as const satisfies readonly CameraFilter[];
export type CameraV2Filter = (typeof CAMERA_V2_FILTERS)[number];
export const CAMERA_V2_DEFAULT_FILTER: CameraV2Filter = "matrix";
export const CAMERA_DEFAULT_FILTER: CameraFilter = "none";

/** The English labels (catalogue keys): a screen shows `t(FILTER_LABELS[filter])`. */
export const FILTER_LABELS: Record<CameraFilter, string> = {
  matrix: msg("Matrix"),
  neon: msg("Neon"),
  bw: msg("Black & White"),
  warm: msg("Warm"),
  cyber: msg("Cyber"),
  infra: msg("Infrared"),
  dreamy: msg("Dreamy"),
  vintage: msg("Vintage"),
  purple: msg("Purple"),
  none: msg("None"),
};

export function isCameraFilter(value: unknown): value is CameraFilter {
  return typeof value === "string" && (CAMERA_FILTERS as readonly string[]).includes(value);
}

/** A colour laid over the whole frame with a blend mode; two colours make a left-to-right gradient. */
export interface ColorLayer {
  color: string | readonly [string, string];
  mode: GlobalCompositeOperation;
  alpha: number;
}

export interface FilterRecipe {
  /** Canvas `filter` applied while the camera frame is drawn. */
  css: string;
  /** Layers composited over the frame, in order. */
  layers: readonly ColorLayer[];
  /** A per-pixel mapping for looks that CSS filters and blend modes cannot make. */
  pixelMap?: "thermal";
  /** Drawn last, on top of everything. */
  overlay?: "glyph-rain" | "scanlines" | "vignette";
}

/*
 * Each recipe changes even a grey or single-coloured picture (tints, duotones, palettes rather than
 * saturation alone), so every filter is visibly different from the others and from none.
 */
export const FILTER_RECIPES: Record<CameraFilter, FilterRecipe> = {
  // Luminance into the green channel (grey times green), with falling glyphs.
  matrix: {
    css: "grayscale(1) contrast(1.3) brightness(1.1)",
    layers: [{ color: "rgb(40, 255, 90)", mode: "multiply", alpha: 1 }],
    overlay: "glyph-rain",
  },
  // Punchy colour under a magenta-to-cyan glow.
  neon: {
    css: "saturate(2.4) contrast(1.35) brightness(1.1)",
    layers: [{ color: ["#ff00d4", "#00e5ff"], mode: "screen", alpha: 0.45 }],
  },
  bw: { css: "grayscale(1) contrast(1.25)", layers: [] },
  warm: {
    css: "sepia(0.5) saturate(1.6) brightness(1.05)",
    layers: [{ color: "rgb(255, 140, 40)", mode: "soft-light", alpha: 0.5 }],
  },
  // A duotone: teal shadows, magenta highlights, and scanlines.
  cyber: {
    css: "grayscale(1) contrast(1.3)",
    layers: [
      { color: "rgb(255, 40, 230)", mode: "multiply", alpha: 1 },
      { color: "rgb(0, 90, 110)", mode: "screen", alpha: 1 },
    ],
    overlay: "scanlines",
  },
  // A thermal-camera palette over luminance.
  infra: { css: "contrast(1.2)", layers: [], pixelMap: "thermal" },
  dreamy: {
    css: "blur(3px) brightness(1.15) saturate(1.3)",
    layers: [{ color: "rgb(255, 200, 240)", mode: "screen", alpha: 0.35 }],
  },
  vintage: { css: "sepia(0.85) contrast(0.9) saturate(0.8)", layers: [], overlay: "vignette" },
  // Purple hue and saturation over the picture's own lightness.
  purple: { css: "contrast(1.1)", layers: [{ color: "rgb(150, 60, 255)", mode: "color", alpha: 0.85 }] },
  none: { css: "none", layers: [] },
};

/** Rec. 709 luma in integer arithmetic (weights sum to 256). */
export function luma(red: number, green: number, blue: number): number {
  return (54 * red + 183 * green + 19 * blue) >> 8;
}

const THERMAL_STOPS: ReadonlyArray<readonly [number, number, number, number]> = [
  [0, 0, 0, 24],
  [0.2, 48, 0, 130],
  [0.4, 170, 0, 160],
  [0.6, 240, 40, 40],
  [0.8, 255, 180, 0],
  [1, 255, 255, 225],
];

/** 256 RGB entries from cold (dark blue) through magenta and red to white-hot. */
export function thermalPalette(): Uint8Array {
  const palette = new Uint8Array(256 * 3);
  for (let level = 0; level < 256; level++) {
    const t = level / 255;
    let upper = 1;
    while (upper < THERMAL_STOPS.length - 1 && THERMAL_STOPS[upper][0] < t) upper++;
    const [t0, r0, g0, b0] = THERMAL_STOPS[upper - 1];
    const [t1, r1, g1, b1] = THERMAL_STOPS[upper];
    const f = (t - t0) / (t1 - t0);
    palette[level * 3] = Math.round(r0 + (r1 - r0) * f);
    palette[level * 3 + 1] = Math.round(g0 + (g1 - g0) * f);
    palette[level * 3 + 2] = Math.round(b0 + (b1 - b0) * f);
  }
  return palette;
}

let cachedThermal: Uint8Array | null = null;

/** Maps RGBA pixels in place through a palette indexed by luma (alpha untouched). */
export function mapPixelsThroughPalette(pixels: Uint8ClampedArray, palette: Uint8Array): void {
  for (let i = 0; i < pixels.length; i += 4) {
    const index = luma(pixels[i], pixels[i + 1], pixels[i + 2]) * 3;
    pixels[i] = palette[index];
    pixels[i + 1] = palette[index + 1];
    pixels[i + 2] = palette[index + 2];
  }
}

export function applyPixelMap(pixels: Uint8ClampedArray, map: NonNullable<FilterRecipe["pixelMap"]>): void {
  if (map === "thermal") mapPixelsThroughPalette(pixels, (cachedThermal ??= thermalPalette()));
}
