/**
 * The camera: opening it (front or back), telling why it could not be opened, and drawing its
 * frames through a filter onto a canvas that photos and videos are taken from.
 */
import type { CameraFilter } from "./camera-filters";
import { createFilterEffects, drawFilteredFrame } from "./filter-drawing";
import { isPermissionError, stopStream } from "./recorder";

export type Facing = "user" | "environment";

export interface Resolution {
  width: number;
  height: number;
}

/** Why the camera is not available, for the message the screen shows. */
export type CameraProblem = "denied" | "missing" | "busy" | "unsupported";

export function cameraProblemOf(error: unknown): CameraProblem {
  if (isPermissionError(error)) return "denied";
  const name = (error as { name?: string } | null)?.name;
  if (name === "NotFoundError" || name === "OverconstrainedError" || name === "DevicesNotFoundError") return "missing";
  if (name === "NotReadableError" || name === "AbortError" || name === "TrackStartError") return "busy";
  return "unsupported";
}

export function canUseCamera(): boolean {
  return typeof navigator !== "undefined" && typeof navigator.mediaDevices?.getUserMedia === "function";
}

/** The video inputs (their labels and ids are only complete once permission was given). */
export async function listCameras(): Promise<MediaDeviceInfo[]> {
  if (typeof navigator.mediaDevices?.enumerateDevices !== "function") return [];
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices.filter((device) => device.kind === "videoinput");
}

export function deviceIdOf(stream: MediaStream): string | undefined {
  return stream.getVideoTracks()[0]?.getSettings().deviceId;
}

interface OpenCameraOptions {
  facing: Facing;
  resolution?: Resolution;
  /** When flipping: the camera in use before, which the new stream should not be. */
  previousDeviceId?: string;
}

/**
 * Opens the camera facing the asked way. Many desktop cameras do not say which way they face, so
 * when the browser hands back the same camera on a flip, the next camera is chosen by its id.
 */
export async function openCamera({ facing, resolution, previousDeviceId }: OpenCameraOptions): Promise<MediaStream> {
  const size: MediaTrackConstraints = resolution
    ? { width: { ideal: resolution.width }, height: { ideal: resolution.height } }
    : {};
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { ...size, facingMode: { ideal: facing } },
    audio: false,
  });
  if (!previousDeviceId || deviceIdOf(stream) !== previousDeviceId) return stream;
  const other = (await listCameras()).find((camera) => camera.deviceId && camera.deviceId !== previousDeviceId);
  if (!other) return stream;
  stopStream(stream);
  return navigator.mediaDevices.getUserMedia({ video: { ...size, deviceId: { exact: other.deviceId } }, audio: false });
}

export interface FilteredPreview {
  /** Frames drawn so far: a photo or video before the first frame would be empty. */
  framesDrawn(): number;
  stop(): void;
}

interface PreviewOptions {
  /** Read every frame, so a new filter shows at once. */
  filter: () => CameraFilter;
  /** A fixed output size (the source is cropped to cover it), or null for the camera's own size. */
  output: Resolution | null;
  frameRate?: number;
  /** Called once, when the first frame is on the canvas: the preview a person sees has a picture. */
  onFirstFrame?: () => void;
}

/**
 * Draws the playing video onto the canvas through the current filter: once per camera frame where
 * the browser reports video frames (no work is wasted redrawing an unchanged frame), otherwise about
 * `frameRate` times a second. The canvas is both the preview and the source of photos and recordings.
 */
export function startFilteredPreview(
  video: HTMLVideoElement,
  canvas: HTMLCanvasElement,
  options: PreviewOptions,
): FilteredPreview {
  const context = canvas.getContext("2d");
  const effects = createFilterEffects();
  // Reduced motion stills the filters' own animation (the Matrix glyph rain), followed live.
  const motion = typeof window.matchMedia === "function" ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  const followMotion = () => void (effects.still = motion?.matches ?? false);
  followMotion();
  motion?.addEventListener("change", followMotion);
  const interval = 1000 / (options.frameRate ?? 30);
  const perVideoFrame = typeof video.requestVideoFrameCallback === "function";
  let frames = 0;
  let last = -Infinity;
  let handle = 0;
  let stopped = false;

  const draw = () => {
    if (!context || video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || video.videoWidth === 0) return;
    const width = options.output?.width ?? video.videoWidth;
    const height = options.output?.height ?? video.videoHeight;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    drawFilteredFrame(context, video, video.videoWidth, video.videoHeight, options.filter(), effects);
    frames++;
    if (frames === 1) options.onFirstFrame?.();
  };

  const onVideoFrame = () => {
    if (stopped) return;
    handle = video.requestVideoFrameCallback(onVideoFrame);
    draw();
  };
  const onAnimationFrame = (time: number) => {
    if (stopped) return;
    handle = requestAnimationFrame(onAnimationFrame);
    // Slightly early is fine: a 60 Hz display then still gets a steady 30 frames a second.
    if (time - last < interval - 4) return;
    last = time;
    draw();
  };
  handle = perVideoFrame ? video.requestVideoFrameCallback(onVideoFrame) : requestAnimationFrame(onAnimationFrame);
  // The frame the video already holds goes on the canvas now, not at the camera's next frame.
  draw();

  return {
    framesDrawn: () => frames,
    stop() {
      stopped = true;
      motion?.removeEventListener("change", followMotion);
      if (perVideoFrame) video.cancelVideoFrameCallback(handle);
      else cancelAnimationFrame(handle);
    },
  };
}
