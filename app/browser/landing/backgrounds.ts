/**
 * The landing screen's animated backgrounds (see background-painter.ts for what is drawn). Where the
 * browser can hand a canvas to a worker, the drawing runs there (background-worker.ts) and the page's
 * main thread only reports size changes; otherwise it runs here, a frame every 33-50 ms. With
 * prefers-reduced-motion a single still frame is drawn. A canvas can be handed over only once: the
 * landing gives each mode a canvas of its own.
 */
import { createPainter, FRAME_INTERVAL_MS, type BackgroundMode, type CanvasSize } from "./background-painter";

function measure(canvas: HTMLCanvasElement): CanvasSize {
  return { width: canvas.clientWidth, height: canvas.clientHeight };
}

export function startBackground(canvas: HTMLCanvasElement, mode: BackgroundMode): () => void {
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (typeof canvas.transferControlToOffscreen === "function" && typeof Worker === "function") {
    try {
      return startInWorker(canvas, mode, reduceMotion);
    } catch {
      // A canvas already handed over, or workers refused: draw here instead.
    }
  }
  return startOnPage(canvas, mode, reduceMotion);
}

function startInWorker(canvas: HTMLCanvasElement, mode: BackgroundMode, reduceMotion: boolean): () => void {
  const worker = new Worker(new URL("./background-worker.ts", import.meta.url), { type: "module" });
  const offscreen = canvas.transferControlToOffscreen();
  const { width, height } = measure(canvas);
  worker.postMessage({ type: "start", canvas: offscreen, mode, width, height, ratio: devicePixelRatio, reduceMotion }, [
    offscreen,
  ]);
  const observer = new ResizeObserver(() => {
    const { width, height } = measure(canvas);
    worker.postMessage({ type: "resize", width, height, ratio: devicePixelRatio });
  });
  observer.observe(canvas);
  return () => {
    observer.disconnect();
    worker.terminate();
  };
}

function startOnPage(canvas: HTMLCanvasElement, mode: BackgroundMode, reduceMotion: boolean): () => void {
  const context = canvas.getContext("2d");
  if (!context) return () => {};
  let size = measure(canvas);
  const resize = () => {
    size = measure(canvas);
    canvas.width = size.width * devicePixelRatio;
    canvas.height = size.height * devicePixelRatio;
    context.setTransform(devicePixelRatio, 0, 0, devicePixelRatio, 0, 0);
  };
  resize();
  const observer = new ResizeObserver(resize);
  observer.observe(canvas);
  const draw = createPainter(context, mode, () => size, reduceMotion);
  let frame = 0;
  let last = 0;
  const loop = (time: number) => {
    if (time - last >= FRAME_INTERVAL_MS[mode]) {
      draw();
      last = time;
    }
    frame = requestAnimationFrame(loop);
  };
  if (!reduceMotion) frame = requestAnimationFrame(loop);
  return () => {
    cancelAnimationFrame(frame);
    observer.disconnect();
  };
}
