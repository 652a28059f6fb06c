/**
 * The camera filters of docs/screens.md#constants-and-limits, drawn onto a 2D canvas frame by frame so that what the preview
 * shows is exactly what a photo or a video records. Most looks are a canvas `filter` (CSS filter
 * functions, done natively by the browser) plus colour layers composited on top; the looks CSS
 * cannot express (the thermal palette of infra) map pixels in JavaScript.
 *
 * Everything above `drawFilteredFrame` is pure and runs in Node (unit tests).
 */

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

export const FILTER_LABELS: Record<CameraFilter, string> = {
  matrix: "Matrix",
  neon: "Neon",
  bw: "Black & White",
  warm: "Warm",
  cyber: "Cyber",
  infra: "Infrared",
  dreamy: "Dreamy",
  vintage: "Vintage",
  purple: "Purple",
  none: "None",
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

/** The part of a source to draw so it covers the output without stretching (centred crop). */
export function coverCrop(sourceWidth: number, sourceHeight: number, outputWidth: number, outputHeight: number) {
  const scale = Math.max(outputWidth / sourceWidth, outputHeight / sourceHeight);
  const width = outputWidth / scale;
  const height = outputHeight / scale;
  return { x: (sourceWidth - width) / 2, y: (sourceHeight - height) / 2, width, height };
}

// Greek letters rather than katakana: every monospace font has them (katakana showed as boxes
// wherever no CJK font is installed).
const GLYPHS = "ΔΘΛΞΠΣΦΨΩλμξπψω0123456789ABCDEF<>/{}=+*";
const RAIN_COLUMNS = 40;
const RAIN_TRAIL = 12;

/** Falling glyph columns: each has a head row and a speed in rows per frame. */
export interface GlyphRain {
  heads: number[];
  speeds: number[];
  frame: number;
}

export function createGlyphRain(columns = RAIN_COLUMNS, random: () => number = Math.random): GlyphRain {
  return {
    // Spread over (and above) the frame, so the rain is already falling when the camera starts.
    heads: Array.from({ length: columns }, () => Math.floor(random() * 40) - 10),
    speeds: Array.from({ length: columns }, () => 0.3 + random() * 0.5),
    frame: 0,
  };
}

/** One step down; a column that left the bottom restarts above the top at a random height. */
export function advanceGlyphRain(rain: GlyphRain, rows: number, random: () => number = Math.random): void {
  rain.frame++;
  for (let column = 0; column < rain.heads.length; column++) {
    rain.heads[column] += rain.speeds[column];
    if (rain.heads[column] - RAIN_TRAIL > rows) rain.heads[column] = -Math.floor(random() * 20);
  }
}

/** A glyph that stays put in its cell for a few frames, so the trails shimmer rather than flicker. */
export function glyphAt(column: number, row: number, frame: number): string {
  const seed = (column * 7919 + row * 104729 + Math.floor(frame / 6) * 31) >>> 0;
  return GLYPHS[seed % GLYPHS.length];
}

/** Per-canvas state kept between frames: the glyph rain and a scratch canvas for pixel maps. */
export interface FilterEffects {
  rain: GlyphRain;
  scratch: HTMLCanvasElement | null;
  /** Reduced motion: the glyph rain stands still (the camera's own picture stays live). */
  still: boolean;
}

export function createFilterEffects(): FilterEffects {
  return { rain: createGlyphRain(), scratch: null, still: false };
}

function fillLayer(context: CanvasRenderingContext2D, layer: ColorLayer, width: number, height: number) {
  context.globalCompositeOperation = layer.mode;
  context.globalAlpha = layer.alpha;
  if (typeof layer.color === "string") {
    context.fillStyle = layer.color;
  } else {
    const gradient = context.createLinearGradient(0, 0, width, height);
    gradient.addColorStop(0, layer.color[0]);
    gradient.addColorStop(1, layer.color[1]);
    context.fillStyle = gradient;
  }
  context.fillRect(0, 0, width, height);
}

function drawGlyphRain(
  context: CanvasRenderingContext2D,
  rain: GlyphRain,
  width: number,
  height: number,
  still: boolean,
) {
  const cell = width / rain.heads.length;
  const rows = Math.ceil(height / cell);
  if (!still) advanceGlyphRain(rain, rows);
  context.font = `${Math.round(cell * 0.9)}px monospace`;
  context.textAlign = "center";
  context.textBaseline = "top";
  for (let column = 0; column < rain.heads.length; column++) {
    const head = Math.floor(rain.heads[column]);
    for (let step = 0; step < RAIN_TRAIL; step++) {
      const row = head - step;
      if (row < 0 || row > rows) continue;
      context.globalAlpha = step === 0 ? 0.95 : 0.7 * (1 - step / RAIN_TRAIL);
      context.fillStyle = step === 0 ? "#d7ffd9" : "#00ff66";
      context.fillText(glyphAt(column, row, rain.frame), column * cell + cell / 2, row * cell);
    }
  }
}

function drawScanlines(context: CanvasRenderingContext2D, width: number, height: number) {
  context.globalAlpha = 0.28;
  context.fillStyle = "#000";
  const spacing = Math.max(3, Math.round(height / 180));
  for (let y = 0; y < height; y += spacing) context.fillRect(0, y, width, Math.ceil(spacing / 3));
}

function drawVignette(context: CanvasRenderingContext2D, width: number, height: number) {
  const radius = Math.hypot(width, height) / 2;
  const gradient = context.createRadialGradient(width / 2, height / 2, radius * 0.35, width / 2, height / 2, radius);
  gradient.addColorStop(0, "rgba(40, 20, 0, 0)");
  gradient.addColorStop(1, "rgba(40, 20, 0, 0.75)");
  context.globalAlpha = 1;
  context.fillStyle = gradient;
  context.fillRect(0, 0, width, height);
}

/**
 * Draws one camera frame onto the whole canvas with the filter applied (the source is cropped to
 * cover the canvas). The canvas then holds exactly what a photo saves and a recording captures.
 */
export function drawFilteredFrame(
  context: CanvasRenderingContext2D,
  source: CanvasImageSource,
  sourceWidth: number,
  sourceHeight: number,
  filter: CameraFilter,
  effects: FilterEffects,
): void {
  const { width, height } = context.canvas;
  const recipe = FILTER_RECIPES[filter];
  const crop = coverCrop(sourceWidth, sourceHeight, width, height);

  context.save();
  // Black beneath, so blur's transparent edges do not show the previous frame.
  context.fillStyle = "#000";
  context.fillRect(0, 0, width, height);
  context.filter = recipe.css;
  context.drawImage(source, crop.x, crop.y, crop.width, crop.height, 0, 0, width, height);
  context.filter = "none";

  if (recipe.pixelMap) {
    // Pixel reads go through a scratch canvas made for frequent reads, keeping the visible canvas fast.
    const scratch = (effects.scratch ??= document.createElement("canvas"));
    if (scratch.width !== width || scratch.height !== height) {
      scratch.width = width;
      scratch.height = height;
    }
    const scratchContext = scratch.getContext("2d", { willReadFrequently: true });
    if (scratchContext) {
      scratchContext.drawImage(context.canvas, 0, 0);
      const image = scratchContext.getImageData(0, 0, width, height);
      applyPixelMap(image.data, recipe.pixelMap);
      scratchContext.putImageData(image, 0, 0);
      context.drawImage(scratch, 0, 0);
    }
  }

  for (const layer of recipe.layers) fillLayer(context, layer, width, height);
  context.globalCompositeOperation = "source-over";
  context.globalAlpha = 1;

  if (recipe.overlay === "glyph-rain") drawGlyphRain(context, effects.rain, width, height, effects.still);
  else if (recipe.overlay === "scanlines") drawScanlines(context, width, height);
  else if (recipe.overlay === "vignette") drawVignette(context, width, height);
  context.restore();
}
