import { Worker } from "node:worker_threads";

/**
 * The offline sketch styles' per-pixel work (cartoon outlines, noise textures) runs in a worker
 * thread: on a megapixel sketch it takes a few hundred milliseconds of plain JavaScript, which on the
 * main thread would stall every other request meanwhile.
 *
 * The worker's code is these functions' own source (Function.prototype.toString), so each must be
 * self-contained: no imports, no module-level names, only globals. They can also be called directly
 * (the tests compare both ways).
 */

/** Cartoon: strokes thickened into flat posterised colours with dark ink outlines on halftone paper. */
export function cartoonPixels(rgb: Uint8Array, width: number, height: number): Uint8Array {
  // The paper colour: the mean of the sketch's four corners.
  const sum = [0, 0, 0];
  let count = 0;
  const block = Math.max(1, Math.min(8, width, height));
  for (const [cornerX, cornerY] of [
    [0, 0],
    [width - block, 0],
    [0, height - block],
    [width - block, height - block],
  ]) {
    for (let y = cornerY; y < cornerY + block; y++) {
      for (let x = cornerX; x < cornerX + block; x++) {
        const i = (y * width + x) * 3;
        sum[0] += rgb[i];
        sum[1] += rgb[i + 1];
        sum[2] += rgb[i + 2];
        count++;
      }
    }
  }
  const [bgR, bgG, bgB] = [sum[0] / count, sum[1] / count, sum[2] / count];

  // Grows each stroke by `radius` pixels (a square), remembering which stroke pixel each grown pixel came from.
  const dilate = (source: Int32Array, radius: number): Int32Array => {
    const rows = new Int32Array(width * height).fill(-1);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let found = -1;
        for (let k = -radius; k <= radius && found < 0; k++) {
          const xx = x + k;
          if (xx >= 0 && xx < width) found = source[y * width + xx];
        }
        rows[y * width + x] = found;
      }
    }
    const result = new Int32Array(width * height).fill(-1);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let found = -1;
        for (let k = -radius; k <= radius && found < 0; k++) {
          const yy = y + k;
          if (yy >= 0 && yy < height) found = rows[yy * width + x];
        }
        result[y * width + x] = found;
      }
    }
    return result;
  };

  const strokes = new Int32Array(width * height).fill(-1);
  for (let i = 0; i < width * height; i++) {
    const distance = Math.abs(rgb[i * 3] - bgR) + Math.abs(rgb[i * 3 + 1] - bgG) + Math.abs(rgb[i * 3 + 2] - bgB);
    if (distance > 60) strokes[i] = i;
  }
  const fill = dilate(strokes, 2);
  const outline = dilate(fill, 3);
  const posterise = (value: number) => (value < 64 ? 0 : value < 170 ? 140 : 255);
  const out = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    let colour: [number, number, number];
    if (fill[i] >= 0) {
      const j = fill[i];
      const brightest = Math.max(rgb[j * 3], rgb[j * 3 + 1], rgb[j * 3 + 2]) || 1;
      colour = [
        posterise((rgb[j * 3] * 255) / brightest),
        posterise((rgb[j * 3 + 1] * 255) / brightest),
        posterise((rgb[j * 3 + 2] * 255) / brightest),
      ];
    } else if (outline[i] >= 0) {
      colour = [27, 27, 35];
    } else {
      const x = i % width;
      const y = Math.floor(i / width);
      const dot = ((x % 12) - 6) ** 2 + ((y % 12) - 6) ** 2 < 5;
      colour = dot ? [240, 228, 200] : [253, 246, 227];
    }
    out[i * 3] = colour[0];
    out[i * 3 + 1] = colour[1];
    out[i * 3 + 2] = colour[2];
  }
  return out;
}

/** A repeatable grey noise texture (grain, canvas), RGB: a seeded generator, so the same sketch gives the same image. */
export function noisePixels(width: number, height: number, seed: number, amplitude: number): Uint8Array {
  const out = new Uint8Array(width * height * 3);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < width * height; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    // Uint8Array stores truncate like Buffer did (the same bytes as before the move to the worker).
    const value = 128 + (((state >>> 0) % 1000) / 1000 - 0.5) * 2 * amplitude;
    out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = value;
  }
  return out;
}

type PixelJob =
  | { type: "cartoon"; rgb: Uint8Array; width: number; height: number }
  | { type: "noise"; width: number; height: number; seed: number; amplitude: number };
type PixelAnswer = { id: number; pixels?: Uint8Array; error?: string };

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const cartoonPixels = ${cartoonPixels.toString()};
const noisePixels = ${noisePixels.toString()};
parentPort.on("message", (job) => {
  try {
    const pixels = job.type === "cartoon" ? cartoonPixels(job.rgb, job.width, job.height) : noisePixels(job.width, job.height, job.seed, job.amplitude);
    parentPort.postMessage({ id: job.id, pixels }, [pixels.buffer]);
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});
`;

/** A megapixel cartoon takes well under a second; far beyond that the worker is stuck and replaced. */
const JOB_TIMEOUT_MS = 20_000;
/** Jobs waiting beyond this are refused (the API answers 502) rather than queued without bound. */
const MAX_WAITING = 16;

class PixelWorker {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (pixels: Uint8Array) => void; reject: (error: Error) => void }
  >();
  private waiting = 0;

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    // An idle worker must not keep the process (or a test run) alive.
    worker.unref();
    worker.on("message", (answer: PixelAnswer) => {
      const entry = this.pending.get(answer.id);
      if (!entry) return;
      this.pending.delete(answer.id);
      if (answer.pixels) entry.resolve(answer.pixels);
      else entry.reject(new Error(answer.error ?? "the pixel worker gave no pixels"));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const entry of this.pending.values()) entry.reject(error);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the pixel worker stopped (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Jobs run one after another inside the worker (postMessage queues them). */
  run(job: PixelJob): Promise<Uint8Array> {
    if (this.waiting >= MAX_WAITING) return Promise.reject(new Error("the pixel worker is busy"));
    const worker = this.start();
    const id = this.nextId++;
    this.waiting++;
    return new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error("the pixel worker did not answer in time"));
        // A stuck worker is replaced on the next job (its other jobs fail with its exit).
        void worker.terminate();
      }, JOB_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, {
        resolve: (pixels) => (clearTimeout(timer), resolve(pixels)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      if (job.type === "cartoon") {
        // A copy of our own to hand over: the caller's buffer may be a view into a shared pool.
        const rgb = new Uint8Array(job.rgb);
        worker.postMessage({ ...job, rgb, id }, [rgb.buffer]);
      } else {
        worker.postMessage({ ...job, id });
      }
    }).finally(() => this.waiting--);
  }
}

const pixelWorker = new PixelWorker();

/** cartoonPixels, worked in the worker thread. */
export function cartoonPixelsOffThread(rgb: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  return pixelWorker.run({ type: "cartoon", rgb, width, height });
}

/** noisePixels, worked in the worker thread. */
export function noisePixelsOffThread(
  width: number,
  height: number,
  seed: number,
  amplitude: number,
): Promise<Uint8Array> {
  return pixelWorker.run({ type: "noise", width, height, seed, amplitude });
}
