import { useEffect, useId, useRef } from "react";
import { useT } from "~/components/ui/i18n";

/** A press longer than this records a video; a shorter one takes a photo. */
export const HOLD_TO_RECORD_MS = 300;

interface CaptureButtonProps {
  onPhoto: () => void;
  /** Called once the press has lasted HOLD_TO_RECORD_MS; returns false when recording could not start. */
  onVideoStart: () => boolean;
  /** Called when a press that started a video ends. */
  onVideoStop: () => void;
  recording: boolean;
  /** Elapsed recording time, e.g. "0:04". */
  elapsed: string | null;
  disabled?: boolean;
  /** Said on the button while it waits for the camera (disabled), instead of "Capture". */
  waitingLabel?: string;
}

/**
 * docs/screens.md#screens-and-routes: tap for a photo, hold for a video. Works with a mouse, pen or finger (Pointer Events,
 * with the pointer captured so sliding off the button still ends the press) and with the keyboard
 * (Space or Enter held down). Screen readers' activation (a click without a press) takes a photo.
 */
export function CaptureButton({
  onPhoto,
  onVideoStart,
  onVideoStop,
  recording,
  elapsed,
  disabled,
  waitingLabel,
}: CaptureButtonProps) {
  const { t } = useT();
  const hintId = useId();
  const press = useRef<{ timer: ReturnType<typeof setTimeout> | null; holding: boolean } | null>(null);
  const lastKeyPressEnded = useRef(0);
  const handlers = useRef({ onPhoto, onVideoStart, onVideoStop });
  useEffect(() => {
    handlers.current = { onPhoto, onVideoStart, onVideoStop };
  }, [onPhoto, onVideoStart, onVideoStop]);

  const begin = () => {
    if (press.current) return;
    const current = { timer: null as ReturnType<typeof setTimeout> | null, holding: false };
    current.timer = setTimeout(() => {
      current.timer = null;
      current.holding = handlers.current.onVideoStart();
    }, HOLD_TO_RECORD_MS);
    press.current = current;
  };

  /** A release ends the press (photo or video); a cancelled gesture (e.g. the page scrolled) takes no photo. */
  const end = (how: "release" | "cancel") => {
    const current = press.current;
    if (!current) return;
    press.current = null;
    if (current.timer) {
      clearTimeout(current.timer);
      if (how === "release") handlers.current.onPhoto();
    } else if (current.holding) {
      handlers.current.onVideoStop();
    }
  };

  // Unmounting mid-press: no late photo or recording.
  useEffect(
    () => () => {
      if (press.current?.timer) clearTimeout(press.current.timer);
      press.current = null;
    },
    [],
  );

  const isPressKey = (key: string) => key === " " || key === "Enter";

  return (
    <div className="capture-button-wrap">
      <button
        type="button"
        className={`capture-button ${recording ? "capture-button-recording" : ""}`}
        aria-describedby={hintId}
        data-recording={recording}
        disabled={disabled}
        onPointerDown={(event) => {
          if (event.button !== 0) return;
          event.currentTarget.setPointerCapture(event.pointerId);
          begin();
        }}
        onPointerUp={() => end("release")}
        onPointerCancel={() => end("cancel")}
        onKeyDown={(event) => {
          if (!isPressKey(event.key)) return;
          // Handled here rather than as a click, so that holding the key records.
          event.preventDefault();
          if (!event.repeat) begin();
        }}
        onKeyUp={(event) => {
          if (!isPressKey(event.key)) return;
          event.preventDefault();
          lastKeyPressEnded.current = Date.now();
          end("release");
        }}
        onBlur={() => end("release")}
        onClick={(event) => {
          // detail 0: activated without a pointer press or our key handling (assistive technology).
          const justHandledKey = Date.now() - lastKeyPressEnded.current < 500;
          if (event.detail === 0 && !press.current && !justHandledKey) handlers.current.onPhoto();
        }}
        onContextMenu={(event) => event.preventDefault()}
      >
        <span className="capture-button-dot" aria-hidden="true" />
        <span className="capture-button-label">
          {recording
            ? t("Recording {{elapsed}} · release to stop", { elapsed: elapsed ?? "" })
            : disabled && waitingLabel
              ? waitingLabel
              : t("Capture")}
        </span>
      </button>
      <p className="muted capture-hint" id={hintId}>
        {t("Tap for a photo, hold for a video.")}
      </p>
    </div>
  );
}
