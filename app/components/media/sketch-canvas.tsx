import { useCallback, useEffect, useImperativeHandle, useRef, type Ref } from "react";
import { BLANK_TOLERANCE, SKETCH_PAPER } from "~/common/media/sketch-styles";
import { useT } from "~/components/ui/i18n";

/** docs/screens.md#constants-and-limits: erase width is 1.5 times the brush. */
export const ERASE_FACTOR = 1.5;
export const SKETCH_SIZE = { width: 800, height: 500 };
/** The paper: the sketch is opaque so that a saved PNG looks like the pad. */
export const SKETCH_BACKGROUND = SKETCH_PAPER;

export type SketchMode = "draw" | "erase";

export interface SketchCanvasHandle {
  clear(): void;
  toDataUrl(): string;
  toBlob(): Promise<Blob>;
  /** True while nothing but paper is on the canvas (never drawn, cleared, or all erased). */
  isBlank(): boolean;
}

interface SketchCanvasProps {
  colour: string;
  brushSize: number;
  mode: SketchMode;
  /** A picture (same-origin URL) drawn onto the paper at start, fitted inside it: "use as a sketch" from the library. */
  startImage?: string | null;
  ref?: Ref<SketchCanvasHandle>;
}

/**
 * The drawing pad's canvas: mouse, pen and touch through Pointer Events (touch-action: none stops
 * the page from scrolling under a finger), with coalesced events for smooth fast strokes. Erasing
 * paints the paper colour at 1.5 times the brush width.
 */
export function SketchCanvas({ colour, brushSize, mode, startImage = null, ref }: SketchCanvasProps) {
  const { t } = useT();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const stroke = useRef<{ pointerId: number; x: number; y: number } | null>(null);

  const context = () => canvasRef.current?.getContext("2d") ?? null;

  const clear = useCallback(() => {
    const ctx = context();
    if (!ctx) return;
    ctx.fillStyle = SKETCH_BACKGROUND;
    ctx.fillRect(0, 0, SKETCH_SIZE.width, SKETCH_SIZE.height);
  }, []);

  useEffect(clear, [clear]);

  useEffect(() => {
    if (!startImage) return;
    let cancelled = false;
    const picture = new Image();
    picture.onload = () => {
      const ctx = context();
      if (cancelled || !ctx) return;
      const scale = Math.min(SKETCH_SIZE.width / picture.naturalWidth, SKETCH_SIZE.height / picture.naturalHeight);
      const width = picture.naturalWidth * scale;
      const height = picture.naturalHeight * scale;
      ctx.drawImage(picture, (SKETCH_SIZE.width - width) / 2, (SKETCH_SIZE.height - height) / 2, width, height);
      canvasRef.current?.setAttribute("data-start-image", "loaded");
    };
    picture.src = startImage;
    return () => {
      cancelled = true;
    };
  }, [startImage]);

  useImperativeHandle(
    ref,
    () => ({
      clear,
      isBlank: () => {
        const ctx = context();
        if (!ctx) return true;
        const pixels = ctx.getImageData(0, 0, SKETCH_SIZE.width, SKETCH_SIZE.height).data;
        const paper = [
          parseInt(SKETCH_BACKGROUND.slice(1, 3), 16),
          parseInt(SKETCH_BACKGROUND.slice(3, 5), 16),
          parseInt(SKETCH_BACKGROUND.slice(5, 7), 16),
        ];
        for (let i = 0; i < pixels.length; i += 4) {
          if (pixels[i + 3] === 0) continue;
          if (
            Math.abs(pixels[i] - paper[0]) > BLANK_TOLERANCE ||
            Math.abs(pixels[i + 1] - paper[1]) > BLANK_TOLERANCE ||
            Math.abs(pixels[i + 2] - paper[2]) > BLANK_TOLERANCE
          )
            return false;
        }
        return true;
      },
      toDataUrl: () => canvasRef.current?.toDataURL("image/png") ?? "",
      toBlob: () =>
        new Promise<Blob>((resolve, reject) => {
          const canvas = canvasRef.current;
          if (!canvas) return reject(new Error("No canvas"));
          canvas.toBlob(
            (blob) => (blob ? resolve(blob) : reject(new Error("The sketch could not be encoded"))),
            "image/png",
          );
        }),
    }),
    [clear],
  );

  const pointOf = (event: { clientX: number; clientY: number }) => {
    const canvas = canvasRef.current!;
    const rect = canvas.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) * canvas.width) / rect.width,
      y: ((event.clientY - rect.top) * canvas.height) / rect.height,
    };
  };

  const segment = (from: { x: number; y: number }, to: { x: number; y: number }) => {
    const ctx = context();
    if (!ctx) return;
    ctx.strokeStyle = mode === "erase" ? SKETCH_BACKGROUND : colour;
    ctx.lineWidth = mode === "erase" ? brushSize * ERASE_FACTOR : brushSize;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.beginPath();
    ctx.moveTo(from.x, from.y);
    // A click without a move still leaves a dot.
    ctx.lineTo(to.x + (from.x === to.x && from.y === to.y ? 0.01 : 0), to.y);
    ctx.stroke();
  };

  const onPointerDown = (event: React.PointerEvent<HTMLCanvasElement>) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    event.preventDefault();
    try {
      // Keeps the stroke going when the pointer leaves the canvas mid-stroke.
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {
      // The pointer is already gone (or the event was synthetic): draw without capture.
    }
    const point = pointOf(event);
    stroke.current = { pointerId: event.pointerId, ...point };
    segment(point, point);
  };

  const onPointerMove = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const current = stroke.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const native = event.nativeEvent;
    const events = typeof native.getCoalescedEvents === "function" ? native.getCoalescedEvents() : [];
    let last = { x: current.x, y: current.y };
    for (const sample of events.length ? events : [native]) {
      const point = pointOf(sample);
      segment(last, point);
      last = point;
    }
    stroke.current = { pointerId: current.pointerId, ...last };
  };

  const endStroke = (event: React.PointerEvent<HTMLCanvasElement>) => {
    if (stroke.current?.pointerId === event.pointerId) stroke.current = null;
  };

  return (
    <canvas
      ref={canvasRef}
      className={`sketch-canvas sketch-canvas-${mode}`}
      width={SKETCH_SIZE.width}
      height={SKETCH_SIZE.height}
      aria-label={t("Drawing canvas")}
      role="img"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endStroke}
      onPointerCancel={endStroke}
      onLostPointerCapture={endStroke}
    />
  );
}
