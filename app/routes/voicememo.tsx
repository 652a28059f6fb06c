import { useEffect, useRef, useState } from "react";
import { alertInApp } from "~/browser/app-dialogs";
import { captureFilename } from "~/browser/download";
import {
  browserRecordingFormat,
  formatElapsed,
  startRecording,
  stopStream,
  VOICE_MEMO_FORMATS,
  type ActiveRecording,
  type RecordingFormat,
} from "~/browser/camera/recorder";
import { RequiresJavaScript } from "~/components/ui/requires-javascript";
import { SaveToLibraryButton, savableAs } from "~/components/media/save-to-library";
import { Icon } from "~/components/ui/icon";
import { PageHeader } from "~/components/shell/page-header";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";
import { requireUser } from "~/auth/auth.server";
import type { Route } from "./+types/voicememo";

export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

/** docs/screens.md#error-messages */
export const MICROPHONE_DENIED_TEXT = msg("🎙️ Microphone access denied or unsupported browser.");
const NOTHING_RECORDED_TEXT = msg("Nothing was recorded. Please try again.");
const RECORDING_FAILED_TEXT = msg("The recording failed. Please try again.");

export default function VoiceMemo() {
  const { t } = useT();
  const hydrated = useHydrated();
  return (
    <main className="page page-narrow capture-page">
      <title>{t("Voice Memo · Creative AI Studio")}</title>
      <PageHeader title={t("Voice Memo")} icon="audio-lines" />
      <RequiresJavaScript feature={t("Voice memo recording")} />
      {hydrated ? <VoiceMemoRecorder /> : null}
    </main>
  );
}

interface Memo {
  url: string;
  /** The recording, for "Save to library". */
  blob: Blob;
  filename: string;
  durationMs: number;
  format: RecordingFormat;
}

/**
 * docs/screens.md#voice-memo: Start/Stop Recording with the elapsed time, playback, Delete Memo and
 * Download Memo. One memo at a time, kept only in this page (docs/api.md#every-call: local only); the microphone
 * is released as soon as recording stops or the page is left.
 */
function VoiceMemoRecorder() {
  const { t } = useT();
  const [phase, setPhase] = useState<"idle" | "starting" | "recording">("idle");
  const [memo, setMemo] = useState<Memo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [startedAt, setStartedAt] = useState(0);
  const [now, setNow] = useState(0);
  const active = useRef<{ recording: ActiveRecording; stream: MediaStream } | null>(null);
  const memoUrl = useRef<string | null>(null);
  const mounted = useRef(true);
  const recordButton = useRef<HTMLButtonElement>(null);

  // The button is disabled while the microphone starts (and Delete Memo goes away): the focus comes back to it.
  const changed = useRef(false);
  useEffect(() => {
    if (!changed.current) return void (changed.current = true);
    const lost = !document.activeElement || document.activeElement === document.body;
    if (phase !== "starting" && lost && mounted.current) recordButton.current?.focus();
  }, [phase, memo]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      active.current?.recording.cancel();
      stopStream(active.current?.stream);
      active.current = null;
      if (memoUrl.current) URL.revokeObjectURL(memoUrl.current);
      memoUrl.current = null;
    };
  }, []);

  useEffect(() => {
    if (phase !== "recording") return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [phase]);

  const refuse = () => {
    setError(t(MICROPHONE_DENIED_TEXT));
    // The app's own alert (docs/screens.md#dialogs), with the inline message kept.
    void alertInApp(t(MICROPHONE_DENIED_TEXT));
  };

  const start = async () => {
    if (phase !== "idle") return;
    const format = browserRecordingFormat(VOICE_MEMO_FORMATS);
    if (!format || typeof navigator.mediaDevices?.getUserMedia !== "function") return refuse();
    setError(null);
    setPhase("starting");
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setPhase("idle");
      return refuse();
    }
    if (!mounted.current) return stopStream(stream);
    try {
      const recording = startRecording(stream, format);
      active.current = { recording, stream };
      setStartedAt(recording.startedAt);
      setNow(recording.startedAt);
      setPhase("recording");
    } catch {
      stopStream(stream);
      setPhase("idle");
      refuse();
    }
  };

  const stop = async () => {
    const current = active.current;
    if (!current) return;
    active.current = null;
    setPhase("idle");
    const durationMs = Date.now() - current.recording.startedAt;
    let blob: Blob;
    try {
      blob = await current.recording.stop();
    } catch {
      setError(t(RECORDING_FAILED_TEXT));
      return;
    } finally {
      stopStream(current.stream);
    }
    if (!mounted.current) return;
    if (blob.size === 0) {
      setError(t(NOTHING_RECORDED_TEXT));
      return;
    }
    if (memoUrl.current) URL.revokeObjectURL(memoUrl.current);
    const url = URL.createObjectURL(blob);
    memoUrl.current = url;
    const format = current.recording.format;
    setMemo({ url, blob, durationMs, format, filename: captureFilename("voice-memo", new Date(), format.extension) });
  };

  const deleteMemo = () => {
    if (memoUrl.current) URL.revokeObjectURL(memoUrl.current);
    memoUrl.current = null;
    setMemo(null);
  };

  const recording = phase === "recording";
  const memoFacts = memo
    ? { duration: formatElapsed(memo.durationMs), format: memo.format.extension.toUpperCase() }
    : undefined;
  return (
    <section className="card memo" aria-label={t("Voice memo recorder")}>
      <div className="memo-controls">
        <button
          ref={recordButton}
          type="button"
          className={`button ${recording ? "button-danger" : "button-primary"}`}
          onClick={recording ? stop : start}
          disabled={phase === "starting"}
        >
          <Icon name={recording ? "square" : "mic"} />
          {recording ? t("Stop Recording") : t("Start Recording")}
        </button>
        {recording ? (
          <p className="memo-timer" role="timer" aria-label={t("Recording time")}>
            <span className="camera-rec-dot" aria-hidden="true" /> {formatElapsed(now - startedAt)}
          </p>
        ) : null}
      </div>
      {phase === "starting" ? <p className="muted">{t("Waiting for the microphone…")}</p> : null}
      {error ? (
        <p className="message message-error" role="alert">
          {error}
        </p>
      ) : null}

      {memo ? (
        <div className="memo-result">
          <p className="muted">
            {recording
              ? t("Memo · {{duration}} · {{format}} · a new recording will replace it", memoFacts)
              : t("Memo · {{duration}} · {{format}}", memoFacts)}
          </p>
          <audio
            className="memo-audio"
            src={memo.url}
            controls
            preload="metadata"
            aria-label={t("Voice memo playback")}
          />
          <div className="memo-actions">
            <button type="button" className="button button-ghost" onClick={deleteMemo} disabled={recording}>
              <Icon name="trash-2" />
              {t("Delete Memo")}
            </button>
            {savableAs("memo", memo.format.mimeType) ? (
              <SaveToLibraryButton key={memo.url} source={memo.blob} filename={memo.filename} kind="memo" />
            ) : null}
            <a className="button" href={memo.url} download={memo.filename}>
              <Icon name="download" />
              {t("Download Memo")}
            </a>
          </div>
        </div>
      ) : recording ? null : (
        <p className="muted">
          {t("Press Start Recording and speak; your memo appears here to play back and download.")}
        </p>
      )}
    </section>
  );
}
