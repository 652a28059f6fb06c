import { useCallback, useEffect, useRef, useState } from "react";
import { alertInApp } from "~/browser/app-dialogs";
import type { CameraFilter } from "~/browser/camera/camera-filters";
import { canvasToPng } from "~/browser/download";
import { msg } from "~/common/i18n/translate";
import { useT } from "~/components/ui/i18n";
import {
  cameraProblemOf,
  canUseCamera,
  deviceIdOf,
  listCameras,
  openCamera,
  startFilteredPreview,
  type CameraProblem,
  type Facing,
  type FilteredPreview,
  type Resolution,
} from "~/browser/camera/media-capture";
import {
  browserRecordingFormat,
  CAMERA_VIDEO_FORMATS,
  formatElapsed,
  startRecording,
  stopStream,
  type ActiveRecording,
  type RecordingFormat,
} from "~/browser/camera/recorder";

/** docs/screens.md#error-messages (English: the catalogue's keys; the screen shows `t(camera.message)`). */
export const CAMERA_DENIED_TEXT = msg("Please allow camera access.");
export const CAMERA_NOT_READY_TEXT = msg("Camera not ready yet.");

export const CAMERA_PROBLEM_TEXT: Record<CameraProblem, string> = {
  denied: CAMERA_DENIED_TEXT,
  missing: msg("No camera was found. Connect a camera and reload the page."),
  busy: msg("The camera is in use by another app or could not start. Close that app and reload the page."),
  unsupported: msg(
    "This browser cannot open the camera here: it needs a current browser and a secure (https) connection.",
  ),
};
export const VIDEO_UNSUPPORTED_TEXT = msg("This browser cannot record video from the camera.");
export const PHOTO_FAILED_TEXT = msg("The photo could not be taken. Please try again.");
export const VIDEO_FAILED_TEXT = msg("The video could not be recorded. Please try again.");
export const RECORDING_EMPTY_TEXT = msg("Nothing was recorded. Hold the button a little longer.");

export type CameraStatus = "starting" | "ready" | CameraProblem;

export interface RecordedVideo {
  blob: Blob;
  format: RecordingFormat;
}

const RECORDING_FRAME_RATE = 30;

/**
 * The filtered camera behind both camera screens: opens the camera (and flips it), draws the
 * preview through the chosen filter onto a canvas, and takes photos and videos from that canvas.
 * Leaving the page stops the camera's tracks, the drawing loop and any recording.
 */
export function useFilteredCamera({ filter, output }: { filter: CameraFilter; output: Resolution | null }) {
  const { t } = useT();
  // The app's alerts say their text in the screen's language (the effects read the latest translator).
  const tRef = useRef(t);
  useEffect(() => {
    tRef.current = t;
  }, [t]);
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const filterRef = useRef(filter);
  const previewRef = useRef<FilteredPreview | null>(null);
  const deviceIdRef = useRef<string | undefined>(undefined);
  /** Set by Flip Camera: the next stream should come from a different camera than the last one. */
  const flippingRef = useRef(false);
  const statusRef = useRef<CameraStatus>("starting");
  const recordingRef = useRef<{ recording: ActiveRecording; stream: MediaStream } | null>(null);

  const [facing, setFacing] = useState<Facing>("user");
  /** Bumped by "Try again" to ask for the camera once more (e.g. after allowing it in site settings). */
  const [attempt, setAttempt] = useState(0);
  const [status, setStatusState] = useState<CameraStatus>("starting");
  const [cameraCount, setCameraCount] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [recordingSince, setRecordingSince] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    filterRef.current = filter;
  }, [filter]);

  const setStatus = (next: CameraStatus) => {
    statusRef.current = next;
    setStatusState(next);
  };

  const outputWidth = output?.width;
  const outputHeight = output?.height;
  useEffect(() => {
    const video = videoRef.current;
    const canvas = canvasRef.current;
    if (!video || !canvas) return;
    let cancelled = false;
    let stream: MediaStream | null = null;
    setStatus("starting");
    if (!canUseCamera()) {
      setStatus("unsupported");
      return;
    }
    const resolution = outputWidth && outputHeight ? { width: outputWidth, height: outputHeight } : undefined;
    const previousDeviceId = flippingRef.current ? deviceIdRef.current : undefined;
    flippingRef.current = false;
    openCamera({ facing, resolution, previousDeviceId })
      .then(async (opened) => {
        if (cancelled) return stopStream(opened);
        stream = opened;
        deviceIdRef.current = deviceIdOf(opened);
        video.srcObject = opened;
        await video.play().catch(() => {
          // Muted inline video may autoplay in every current browser; a refusal would only leave the preview still.
        });
        if (cancelled) return;
        // Ready means the preview a person sees has a picture: Capture waits, disabled, until then
        // (a tap as the video started playing used to find an empty canvas: "Camera not ready yet.").
        previewRef.current = startFilteredPreview(video, canvas, {
          filter: () => filterRef.current,
          output: resolution ?? null,
          onFirstFrame: () => {
            if (cancelled) return;
            setStatus("ready");
            setNotice(null);
          },
        });
        const cameras = await listCameras();
        if (!cancelled) setCameraCount(cameras.length);
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        stopStream(stream);
        const problem = cameraProblemOf(error);
        setStatus(problem);
        // docs/screens.md#error-messages: a refusal is an alert, the app's own (and stays in the page).
        if (problem === "denied") void alertInApp(tRef.current(CAMERA_DENIED_TEXT));
      });
    return () => {
      cancelled = true;
      previewRef.current?.stop();
      previewRef.current = null;
      stopStream(stream);
      video.srcObject = null;
    };
  }, [facing, outputWidth, outputHeight, attempt]);

  // Cameras plugged in or out change whether there is another camera to flip to.
  useEffect(() => {
    const devices = typeof navigator === "undefined" ? undefined : navigator.mediaDevices;
    if (!devices?.addEventListener) return;
    const recount = () => {
      if (statusRef.current === "ready") void listCameras().then((cameras) => setCameraCount(cameras.length));
    };
    devices.addEventListener("devicechange", recount);
    return () => devices.removeEventListener("devicechange", recount);
  }, []);

  // A recording in progress when the page goes away is thrown away, and its canvas stream stopped.
  useEffect(
    () => () => {
      recordingRef.current?.recording.cancel();
      stopStream(recordingRef.current?.stream);
      recordingRef.current = null;
    },
    [],
  );

  useEffect(() => {
    if (recordingSince === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [recordingSince]);

  /** True when a filtered frame is on the canvas; otherwise says "Camera not ready yet." (docs/screens.md#error-messages). */
  const ensureReady = useCallback(() => {
    if (statusRef.current === "ready" && (previewRef.current?.framesDrawn() ?? 0) > 0) return true;
    setNotice(CAMERA_NOT_READY_TEXT);
    void alertInApp(tRef.current(CAMERA_NOT_READY_TEXT));
    return false;
  }, []);

  const takePhoto = useCallback(async (): Promise<Blob | null> => {
    const canvas = canvasRef.current;
    if (!canvas || !ensureReady()) return null;
    setNotice(null);
    try {
      return await canvasToPng(canvas);
    } catch {
      setNotice(PHOTO_FAILED_TEXT);
      return null;
    }
  }, [ensureReady]);

  const startVideo = useCallback((): boolean => {
    const canvas = canvasRef.current;
    if (!canvas || recordingRef.current || !ensureReady()) return false;
    const format = browserRecordingFormat(CAMERA_VIDEO_FORMATS);
    if (!format || typeof canvas.captureStream !== "function") {
      setNotice(VIDEO_UNSUPPORTED_TEXT);
      return false;
    }
    const stream = canvas.captureStream(RECORDING_FRAME_RATE);
    recordingRef.current = { recording: startRecording(stream, format), stream };
    setNotice(null);
    setNow(Date.now());
    setRecordingSince(Date.now());
    return true;
  }, [ensureReady]);

  const stopVideo = useCallback(async (): Promise<RecordedVideo | null> => {
    const active = recordingRef.current;
    if (!active) return null;
    recordingRef.current = null;
    setRecordingSince(null);
    try {
      const blob = await active.recording.stop();
      if (blob.size === 0) {
        setNotice(RECORDING_EMPTY_TEXT);
        return null;
      }
      return { blob, format: active.recording.format };
    } catch {
      setNotice(VIDEO_FAILED_TEXT);
      return null;
    } finally {
      stopStream(active.stream);
    }
  }, []);

  const flip = useCallback(() => {
    flippingRef.current = true;
    setFacing((current) => (current === "user" ? "environment" : "user"));
  }, []);
  const retry = useCallback(() => setAttempt((current) => current + 1), []);

  const problem = status === "starting" || status === "ready" ? null : CAMERA_PROBLEM_TEXT[status];
  return {
    videoRef,
    canvasRef,
    status,
    facing,
    cameraCount,
    flip,
    retry,
    /** The page's message: why the camera is unavailable, or the last capture problem. */
    message: problem ?? notice,
    takePhoto,
    startVideo,
    stopVideo,
    recording: recordingSince !== null,
    recordingElapsed: recordingSince === null ? null : formatElapsed(now - recordingSince),
  };
}

export type FilteredCamera = ReturnType<typeof useFilteredCamera>;
