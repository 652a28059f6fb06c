import { applyPixelMap, FILTER_RECIPES, type CameraFilter, type ColorLayer } from "./camera-filters";

/**
 * Drawing a camera frame with a filter (./camera-filters.ts) onto a 2D canvas, frame by frame, so that
 * what the preview shows is exactly what a photo or a video records: the cover crop, the glyph rain of
 * matrix, the colour layers, scanlines and vignette. Everything above `fillLayer` is pure and runs in
 * Node (unit tests).
 */

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
