/**
 * MediaRecorder made small: choose the best container the browser can write (with the file
 * extension it really is), record a stream, and get one Blob back.
 */

export interface RecordingFormat {
  mimeType: string;
  /** The honest file extension for this container. */
  extension: string;
}

/** docs/screens.md#constants-and-limits: voice memos are audio/mp4 saved as .m4a; browsers without it get their own container. */
export const VOICE_MEMO_FORMATS: readonly RecordingFormat[] = [
  { mimeType: "audio/mp4", extension: "m4a" },
  { mimeType: "audio/webm;codecs=opus", extension: "webm" },
  { mimeType: "audio/webm", extension: "webm" },
  { mimeType: "audio/ogg;codecs=opus", extension: "ogg" },
];

/** docs/screens.md#constants-and-limits: camera videos are WebM; MP4 only where WebM cannot be written (Safari). */
export const CAMERA_VIDEO_FORMATS: readonly RecordingFormat[] = [
  { mimeType: "video/webm;codecs=vp8", extension: "webm" },
  { mimeType: "video/webm;codecs=vp9", extension: "webm" },
  { mimeType: "video/webm", extension: "webm" },
  { mimeType: "video/mp4", extension: "mp4" },
];

/** The first format the browser supports, or null when it can write none of them. */
export function pickRecordingFormat(
  formats: readonly RecordingFormat[],
  isTypeSupported: (mimeType: string) => boolean,
): RecordingFormat | null {
  return formats.find((format) => isTypeSupported(format.mimeType)) ?? null;
}

/** The format this browser records in, or null when it has no MediaRecorder or no usable type. */
export function browserRecordingFormat(formats: readonly RecordingFormat[]): RecordingFormat | null {
  if (typeof MediaRecorder === "undefined") return null;
  return pickRecordingFormat(formats, (type) => MediaRecorder.isTypeSupported(type));
}

/** The container part of a MIME type ("audio/webm;codecs=opus" -> "audio/webm"), for Blob types. */
export function containerType(mimeType: string): string {
  return mimeType.split(";")[0].trim();
}

/** "0:07", "12:34", "1:02:03". */
export function formatElapsed(milliseconds: number): string {
  const totalSeconds = Math.max(0, Math.floor(milliseconds / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

export interface ActiveRecording {
  format: RecordingFormat;
  startedAt: number;
  /** Stops and resolves with everything recorded (the Blob may be empty if nothing was captured). */
  stop(): Promise<Blob>;
  /** Stops and throws the data away (leaving the page mid-recording). */
  cancel(): void;
}

/** Starts recording a stream; data arrives every second so a long recording is not one huge buffer at the end. */
export function startRecording(stream: MediaStream, format: RecordingFormat): ActiveRecording {
  const recorder = new MediaRecorder(stream, { mimeType: format.mimeType });
  const chunks: Blob[] = [];
  let cancelled = false;
  recorder.addEventListener("dataavailable", (event) => {
    if (!cancelled && event.data.size > 0) chunks.push(event.data);
  });
  const stopped = new Promise<Blob>((resolve, reject) => {
    recorder.addEventListener("stop", () => resolve(new Blob(chunks, { type: containerType(format.mimeType) })));
    recorder.addEventListener("error", (event) => reject((event as ErrorEvent).error ?? new Error("Recording failed")));
  });
  recorder.start(1000);
  return {
    format,
    startedAt: Date.now(),
    stop() {
      if (recorder.state !== "inactive") recorder.stop();
      return stopped;
    },
    cancel() {
      cancelled = true;
      stopped.catch(() => {});
      if (recorder.state !== "inactive") recorder.stop();
    },
  };
}

/** Stops every track (the camera light and the browser's recording indicator go off). */
export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((track) => track.stop());
}

/** True when getUserMedia was refused by the person or by browser policy. */
export function isPermissionError(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === "NotAllowedError" || name === "SecurityError" || name === "PermissionDeniedError";
}
