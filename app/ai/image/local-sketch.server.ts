import sharp from "sharp";
import { ProviderError } from "~/ai/errors.server";
import type { GeneratedImage } from "./image.server";
import type { SketchProvider } from "./sketch.server";
import { BLANK_TOLERANCE, SKETCH_PAPER, type SketchStyle } from "~/common/media/sketch-styles";
import { cartoonPixelsOffThread, noisePixelsOffThread } from "./sketch-pixels.server";

/**
 * Offline sketch-to-image: the drawing itself, restyled with sharp (libvips). It is not a generative
 * model and the screens say so; what it does is real image processing, different per style:
 * - realistic: softened strokes, a warm key light from the top left, vignette and film grain;
 * - cartoon: strokes thickened into flat posterised colours with dark ink outlines on halftone paper;
 * - futuristic: colours shifted to neon cyan and magenta, glow, a grid and scanlines;
 * - painting: strokes spread like wet paint, richer colour, a brushed canvas texture;
 * - concept: a warm monochrome grade with stronger contrast, vignette and cinema letterbox bars.
 */
export const LOCAL_SKETCH_PROVIDER_ID = "local-stylise";

/** Sketches are scaled to fit this box (the drawing pad sends about 800x500). */
const MAX_SIDE = 1024;
/**
 * The smallest side the styles work on: libvips' median and convolution windows (up to 9 pixels)
 * refuse a smaller image ("rank: window too large"). A smaller sketch, down to 1x1, is enlarged to
 * it first, pixel for pixel, so every valid sketch is stylised.
 */
const MIN_SIDE = 16;
/** Refuses decompression bombs: a 10 MiB PNG can claim gigapixels. */
const MAX_INPUT_PIXELS = 4096 * 4096;

const svg = (width: number, height: number, inner: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${inner}</svg>`);

interface Canvas {
  rgb: Buffer;
  width: number;
  height: number;
}

const fromRaw = ({ rgb, width, height }: { rgb: Uint8Array; width: number; height: number }) =>
  sharp(rgb, { raw: { width, height, channels: 3 } });

/** A grey noise texture (grain, canvas), made in the worker thread (see sketch-pixels.server.ts). */
async function noise(width: number, height: number, seed: number, amplitude: number) {
  return fromRaw({ rgb: await noisePixelsOffThread(width, height, seed, amplitude), width, height });
}

async function realistic(canvas: Canvas): Promise<Buffer> {
  const { width, height } = canvas;
  const light = svg(
    width,
    height,
    `<defs><radialGradient id="l" cx="28%" cy="22%" r="90%"><stop offset="0" stop-color="#fff3da"/><stop offset="0.55" stop-color="#8a8070"/><stop offset="1" stop-color="#151515"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#l)"/>`,
  );
  const grain = await (await noise(width, height, width * 31 + height, 18)).png().toBuffer();
  return fromRaw(canvas)
    .blur(1.6)
    .modulate({ saturation: 0.85, brightness: 1.08 })
    .composite([
      { input: light, blend: "soft-light" },
      { input: grain, blend: "soft-light" },
    ])
    .sharpen({ sigma: 1.2 })
    .png()
    .toBuffer();
}

/** Per-pixel work (outlines carry each stroke's own colour): done in the worker thread, see sketch-pixels.server.ts. */
async function cartoon({ rgb, width, height }: Canvas): Promise<Buffer> {
  return fromRaw({ rgb: await cartoonPixelsOffThread(rgb, width, height), width, height })
    .png()
    .toBuffer();
}

async function futuristic(canvas: Canvas): Promise<Buffer> {
  const { width, height } = canvas;
  const neon = await fromRaw(canvas)
    .recomb([
      [0.3, 0.2, 0.9],
      [0.2, 0.9, 0.7],
      [0.9, 0.1, 1.0],
    ])
    .modulate({ saturation: 2 })
    .linear(1.4, -20)
    .png()
    .toBuffer();
  const glow = await sharp(neon).blur(10).png().toBuffer();
  let grid = "";
  for (let x = 0; x < width; x += 64)
    grid += `<line x1="${x}" y1="0" x2="${x}" y2="${height}" stroke="#00e5ff" stroke-opacity="0.22"/>`;
  for (let y = 0; y < height; y += 64)
    grid += `<line x1="0" y1="${y}" x2="${width}" y2="${y}" stroke="#ff00e5" stroke-opacity="0.22"/>`;
  let scanlines = "";
  for (let y = 0; y < height; y += 4)
    scanlines += `<rect y="${y}" width="${width}" height="1" fill="#000" fill-opacity="0.35"/>`;
  return sharp(neon)
    .composite([
      { input: glow, blend: "screen" },
      { input: svg(width, height, grid), blend: "screen" },
      { input: svg(width, height, scanlines), blend: "over" },
    ])
    .png()
    .toBuffer();
}

async function painting(canvas: Canvas): Promise<Buffer> {
  const { width, height } = canvas;
  // Brushed canvas: noise smeared along one direction.
  const texture = await (
    await noise(width, height, width * 17 + height * 3, 70)
  )
    // A horizontal smear (libvips wants a kernel at least 3 high: the outer rows are zero).
    .convolve({ width: 9, height: 3, kernel: [...Array(9).fill(0), ...Array(9).fill(1), ...Array(9).fill(0)] })
    .png()
    .toBuffer();
  const warmth = svg(width, height, `<rect width="100%" height="100%" fill="#c8894a"/>`);
  return fromRaw(canvas)
    .median(5)
    .blur(2.5)
    .modulate({ saturation: 1.8, brightness: 1.1 })
    .linear(1.05, 28)
    .composite([
      { input: warmth, blend: "soft-light" },
      { input: texture, blend: "overlay" },
    ])
    .sharpen({ sigma: 2 })
    .png()
    .toBuffer();
}

async function concept(canvas: Canvas): Promise<Buffer> {
  const { width, height } = canvas;
  const bar = Math.round(height * 0.1);
  const frame = svg(
    width,
    height,
    `<defs><radialGradient id="v" cx="50%" cy="50%" r="75%"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.75"/></radialGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#v)"/><rect width="${width}" height="${bar}" fill="#000"/><rect y="${height - bar}" width="${width}" height="${bar}" fill="#000"/>`,
  );
  return fromRaw(canvas)
    .greyscale()
    .linear(1.35, -25)
    .tint({ r: 255, g: 170, b: 90 })
    .composite([{ input: frame, blend: "over" }])
    .png()
    .toBuffer();
}

const STYLISTS: Record<SketchStyle, (canvas: Canvas) => Promise<Buffer>> = {
  realistic,
  cartoon,
  futuristic,
  painting,
  concept,
};

/** The sketch as opaque RGB (transparent areas on white), scaled to fit MAX_SIDE. */
async function loadSketch(png: Buffer): Promise<Canvas> {
  const { data, info } = await sharp(png, { limitInputPixels: MAX_INPUT_PIXELS })
    .flatten({ background: "#ffffff" })
    .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.width >= MIN_SIDE && info.height >= MIN_SIDE) return { rgb: data, width: info.width, height: info.height };
  const width = Math.max(MIN_SIDE, info.width);
  const height = Math.max(MIN_SIDE, info.height);
  const enlarged = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .resize({ width, height, fit: "fill", kernel: "nearest" })
    .raw()
    .toBuffer();
  return { rgb: enlarged, width, height };
}

/** True when sharp can decode the PNG within the pixel limit (the API answers 422 otherwise). */
export async function isDecodablePng(png: Buffer): Promise<boolean> {
  try {
    const metadata = await sharp(png, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (metadata.format !== "png" || !metadata.width || !metadata.height) return false;
    if (metadata.width * metadata.height > MAX_INPUT_PIXELS) return false;
    // metadata() reads the header only; decoding proves the data is whole.
    await sharp(png, { limitInputPixels: MAX_INPUT_PIXELS }).resize(8, 8).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * True when the sketch has nothing drawn on it: every pixel white or transparent, or all the drawing
 * pad's paper (each within BLANK_TOLERANCE: rubbing out leaves rounding behind). Measured by libvips' statistics (no per-pixel JavaScript on a 16-megapixel image):
 * flattened on white, a blank sketch is white throughout; flattened on the paper, all paper.
 */
export async function isBlankSketch(png: Buffer): Promise<boolean> {
  const uniform = async (background: string) => {
    // stats() measures a pipeline's input, so the flattened pixels are made first.
    const { data, info } = await sharp(png, { limitInputPixels: MAX_INPUT_PIXELS })
      .flatten({ background })
      .removeAlpha()
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { channels } = await sharp(data, {
      raw: { width: info.width, height: info.height, channels: info.channels },
    }).stats();
    const target = [1, 3, 5].map((at) => parseInt(background.slice(at, at + 2), 16));
    return channels
      .slice(0, 3)
      .every((channel, i) => channel.min >= target[i] - BLANK_TOLERANCE && channel.max <= target[i] + BLANK_TOLERANCE);
  };
  return (await uniform("#ffffff")) || (await uniform(SKETCH_PAPER));
}

export class LocalSketchStylist implements SketchProvider {
  readonly id = LOCAL_SKETCH_PROVIDER_ID;
  readonly offline = true;

  async stylise(png: Buffer, style: SketchStyle): Promise<GeneratedImage> {
    try {
      const canvas = await loadSketch(png);
      const bytes = await STYLISTS[style](canvas);
      return { bytes, contentType: "image/png", extension: "png" };
    } catch (error) {
      throw new ProviderError("sketch", this.id, "bad_response", (error as Error).message);
    }
  }
}
