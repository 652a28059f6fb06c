import sharp from "sharp";
import { ArrayBufferTarget, Muxer } from "webm-muxer";
import { ProviderError } from "~/ai/errors.server";
import type { RenderedVideo, VideoJobRun, VideoProvider } from "./video.server";

/**
 * Offline video (test mode): a real 4-second WebM clip rendered from the prompt. Each frame is an
 * SVG scene (colours, moving shapes and the prompt's words derived from the prompt) drawn by sharp and
 * encoded as lossy WebP, whose "VP8 " chunk is a VP8 keyframe; webm-muxer puts the keyframes in a
 * WebM container that every browser plays. It is not a generative model, and the clip says so.
 *
 * The renderer paces itself at playback speed and holds the queued and finishing states for about
 * one poll interval, so the screen shows each state of docs/screens.md#states-and-transitions the way a remote job shows them.
 */
export const LOCAL_VIDEO_PROVIDER_ID = "local-renderer";

export const CLIP = { width: 640, height: 360, fps: 12, seconds: 4 };
const FRAME_COUNT = CLIP.fps * CLIP.seconds;
const FRAME_MS = 1000 / CLIP.fps;
/** About one poll of the screen (docs/screens.md#states-and-transitions: every 1 s). */
const PHASE_HOLD_MS = 1000;

/** Progress at the start and end of the processing phase; queued and finishing share the rest. */
export const PROCESSING_SPAN = { from: 0.05, to: 0.9 };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => (signal.removeEventListener("abort", onAbort), resolve()), ms);
    const onAbort = () => (clearTimeout(timer), reject(signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
  });

/** FNV-1a: a stable number from the prompt, so the same prompt renders the same clip. */
function hash(text: string, seed = 0x811c9dc5): number {
  let value = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

/**
 * Characters XML 1.0 does not allow (C0 controls other than tab and line breaks, U+FFFE/U+FFFF) and
 * the C1 controls: one NUL in the prompt made every frame's SVG unreadable and the job end in error.
 */
const NOT_IN_SVG_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]/g;

/** The prompt in at most three lines of at most 38 characters (the last ends in … when the prompt is longer). */
export function wrapPrompt(prompt: string, lineLength = 38, maxLines = 3): string[] {
  const words = prompt.replace(NOT_IN_SVG_TEXT, " ").replace(/\s+/g, " ").trim().split(" ").filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const piece = word.length > lineLength ? word.slice(0, lineLength - 1) + "…" : word;
    const candidate = line ? `${line} ${piece}` : piece;
    if (candidate.length <= lineLength) {
      line = candidate;
      continue;
    }
    lines.push(line);
    line = piece;
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = kept[maxLines - 1].slice(0, lineLength - 1) + "…";
  return kept;
}

export interface Scene {
  hueA: number;
  hueB: number;
  orbs: { radius: number; hue: number; phase: number; speed: number; lane: number }[];
  lines: string[];
}

/** Everything the frames need, derived from the prompt. */
export function sceneFor(prompt: string): Scene {
  const base = hash(prompt);
  const words = prompt.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? ["video"];
  const orbs = words.slice(0, 7).map((word, index) => {
    const h = hash(word, base + index);
    return {
      radius: 18 + Math.min(word.length, 12) * 4,
      hue: h % 360,
      phase: ((h >>> 9) % 628) / 100,
      speed: 0.6 + ((h >>> 3) % 100) / 80,
      lane: 0.15 + ((h >>> 17) % 70) / 100,
    };
  });
  return { hueA: base % 360, hueB: (base >>> 12) % 360, orbs, lines: wrapPrompt(prompt) };
}

/** One frame as SVG: a drifting two-colour gradient, orbs on sine paths, the prompt typed in. */
export function frameSvg(scene: Scene, frame: number): string {
  const { width, height } = CLIP;
  const t = frame / FRAME_COUNT;
  const angle = t * Math.PI * 2;
  const x1 = 50 + 50 * Math.cos(angle);
  const y1 = 50 + 50 * Math.sin(angle);
  const orbs = scene.orbs
    .map((orb, index) => {
      const x = ((orb.phase * 100 + t * orb.speed * width) % (width + 2 * orb.radius)) - orb.radius;
      const y = height * orb.lane + Math.sin(angle * orb.speed + orb.phase) * 40;
      return (
        `<radialGradient id="o${index}"><stop offset="0" stop-color="hsl(${orb.hue},90%,70%)" stop-opacity="0.95"/>` +
        `<stop offset="1" stop-color="hsl(${orb.hue},90%,45%)" stop-opacity="0"/></radialGradient>` +
        `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${orb.radius}" fill="url(#o${index})"/>`
      );
    })
    .join("");
  // The prompt is typed in over the first 60% of the clip.
  const totalCharacters = scene.lines.reduce((sum, line) => sum + line.length, 0);
  let shown = Math.ceil(Math.min(1, t / 0.6) * totalCharacters);
  const text = scene.lines
    .map((line, index) => {
      const visible = line.slice(0, Math.max(0, shown));
      shown -= line.length;
      return `<text x="32" y="${height - 40 - (scene.lines.length - 1 - index) * 32}" font-size="26" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="bold" fill="#fff">${escapeXml(visible)}</text>`;
    })
    .join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="bg" x1="${x1.toFixed(1)}%" y1="${y1.toFixed(1)}%" x2="${(100 - x1).toFixed(1)}%" y2="${(100 - y1).toFixed(1)}%">` +
    `<stop offset="0" stop-color="hsl(${scene.hueA},65%,22%)"/><stop offset="1" stop-color="hsl(${scene.hueB},70%,38%)"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#bg)"/>${orbs}` +
    `<rect x="0" y="${height - 150}" width="${width}" height="150" fill="#000" fill-opacity="0.35"/>${text}` +
    `<text x="${width - 16}" y="26" font-size="14" text-anchor="end" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" fill="#fff" fill-opacity="0.8">Offline render · Test Mode</text>` +
    `</svg>`
  );
}

/** The "VP8 " chunk of a simple lossy WebP file: a VP8 keyframe, ready for a WebM block. */
export function vp8KeyframeOf(webp: Buffer): Uint8Array {
  if (webp.toString("ascii", 0, 4) !== "RIFF" || webp.toString("ascii", 8, 12) !== "WEBP")
    throw new Error("not a WebP file");
  let offset = 12;
  while (offset + 8 <= webp.length) {
    const id = webp.toString("ascii", offset, offset + 4);
    const size = webp.readUInt32LE(offset + 4);
    if (id === "VP8 ") return new Uint8Array(webp.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size + (size & 1);
  }
  throw new Error("the WebP file has no VP8 chunk");
}

export async function renderFrame(scene: Scene, frame: number): Promise<Uint8Array> {
  const webp = await sharp(Buffer.from(frameSvg(scene, frame)))
    .removeAlpha()
    // effort 0: half the encoding time of the default (measured 1.1 s against 2.0 s for the 48 frames),
    // so a busy machine's job still ends inside the screen's 15 polls.
    .webp({ quality: 70, effort: 0, lossless: false, nearLossless: false, smartSubsample: true })
    .toBuffer();
  return vp8KeyframeOf(webp);
}

export class LocalVideoRenderer implements VideoProvider {
  readonly id = LOCAL_VIDEO_PROVIDER_ID;
  readonly offline = true;

  constructor(private readonly pace = true) {}

  async run(job: VideoJobRun): Promise<RenderedVideo> {
    const { signal } = job;
    const scene = sceneFor(job.prompt);
    // A resumed job re-renders what it had done without pacing: progress never goes back.
    const alreadyDone = Math.floor(
      Math.max(
        0,
        Math.min(1, (job.resume.progress - PROCESSING_SPAN.from) / (PROCESSING_SPAN.to - PROCESSING_SPAN.from)),
      ) * FRAME_COUNT,
    );
    if (alreadyDone === 0) {
      await job.report({ status: "queued", progress: 0.02 });
      if (this.pace) await sleep(PHASE_HOLD_MS, signal);
    }

    const muxer = new Muxer({
      target: new ArrayBufferTarget(),
      video: { codec: "V_VP8", width: CLIP.width, height: CLIP.height, frameRate: CLIP.fps },
    });
    try {
      for (let frame = 0; frame < FRAME_COUNT; frame++) {
        const started = Date.now();
        const keyframe = await renderFrame(scene, frame);
        muxer.addVideoChunkRaw(keyframe, "key", Math.round(frame * FRAME_MS * 1000));
        if (frame < alreadyDone) continue;
        if (frame % 3 === 0 || frame === FRAME_COUNT - 1) {
          const done = (frame + 1) / FRAME_COUNT;
          await job.report({
            status: "processing",
            progress: PROCESSING_SPAN.from + done * (PROCESSING_SPAN.to - PROCESSING_SPAN.from),
          });
        }
        if (this.pace) await sleep(Math.max(0, FRAME_MS - (Date.now() - started)), signal);
        else if (signal.aborted) throw signal.reason;
      }
      await job.report({ status: "finishing", progress: 0.94 });
      muxer.finalize();
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ProviderError("video", this.id, "bad_response", (error as Error).message);
    }
    if (this.pace) await sleep(PHASE_HOLD_MS, signal);
    return { bytes: Buffer.from(muxer.target.buffer), contentType: "video/webm", extension: "webm" };
  }
}
