/// <reference lib="webworker" />
/**
 * The landing's background, drawn in a worker on the canvas the page handed over
 * (transferControlToOffscreen): the page's main thread does no animation work, so it stays free for
 * input (Lighthouse's blocking time counted the frames when they were drawn on the page).
 * Messages: {type: "start", canvas, mode, width, height, ratio, reduceMotion}; {type: "resize", width, height, ratio}.
 */
import { createPainter, FRAME_INTERVAL_MS, type BackgroundMode, type CanvasSize } from "./background-painter";

type StartMessage = {
  type: "start";
  canvas: OffscreenCanvas;
  mode: BackgroundMode;
  width: number;
  height: number;
  ratio: number;
  reduceMotion: boolean;
};
type ResizeMessage = { type: "resize"; width: number; height: number; ratio: number };

const scope = self as unknown as DedicatedWorkerGlobalScope;
let canvas: OffscreenCanvas | null = null;
let context: OffscreenCanvasRenderingContext2D | null = null;
const size: CanvasSize = { width: 0, height: 0 };

function applySize(width: number, height: number, ratio: number) {
  if (!canvas || !context) return;
  size.width = width;
  size.height = height;
  canvas.width = Math.max(1, Math.round(width * ratio));
  canvas.height = Math.max(1, Math.round(height * ratio));
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
}

const nextFrame: (callback: (time: number) => void) => void =
  typeof scope.requestAnimationFrame === "function"
    ? (callback) => scope.requestAnimationFrame(callback)
    : (callback) => setTimeout(() => callback(performance.now()), 16);

scope.onmessage = (event: MessageEvent<StartMessage | ResizeMessage>) => {
  const message = event.data;
  if (message.type === "resize") {
    applySize(message.width, message.height, message.ratio);
    return;
  }
  canvas = message.canvas;
  context = canvas.getContext("2d");
  if (!context) return;
  applySize(message.width, message.height, message.ratio);
  const draw = createPainter(context, message.mode, () => size, message.reduceMotion);
  if (message.reduceMotion) return;
  let last = 0;
  const loop = (time: number) => {
    if (time - last >= FRAME_INTERVAL_MS[message.mode]) {
      draw();
      last = time;
    }
    nextFrame(loop);
  };
  nextFrame(loop);
};
