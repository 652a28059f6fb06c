import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Waits on what the browser's media does rather than on the clock: frames the camera delivers, and
 * bytes a MediaRecorder has handed out.
 */

/**
 * Resolves after the camera's `<video>` has presented `count` more frames. The camera screens draw
 * the preview once per video frame (requestVideoFrameCallback, app/browser/camera/media-capture.ts),
 * and their callback for a frame was asked for before this one, so the canvas holds at least
 * `count - 1` frames drawn since the call (the last fully).
 */
export function videoFrames(video: Locator, count: number): Promise<void> {
  return video.evaluate(
    (element: HTMLVideoElement, frames) =>
      new Promise<void>((resolve) => {
        let left = frames;
        const next = () => (--left <= 0 ? resolve() : element.requestVideoFrameCallback(next));
        element.requestVideoFrameCallback(next);
      }),
    count,
  );
}

/**
 * Counts, for every MediaRecorder the page makes, the bytes its `dataavailable` events carried (call
 * before the page loads). The app records with a timeslice of a second (app/browser/camera/recorder.ts),
 * so bytes show once the encoder has its first second out.
 */
export function watchRecorders(page: Page) {
  return page.addInitScript(() => {
    const Original = window.MediaRecorder;
    if (!Original) return;
    const recorded: number[] = [];
    (window as unknown as { __recordedBytes: number[] }).__recordedBytes = recorded;
    window.MediaRecorder = class extends Original {
      constructor(stream: MediaStream, options?: MediaRecorderOptions) {
        super(stream, options);
        const index = recorded.push(0) - 1;
        this.addEventListener("dataavailable", (event) => (recorded[index] += event.data.size));
      }
    };
  });
}

/** Resolves once the newest recording (watchRecorders) has handed out more than `bytes` bytes. */
export async function recordedMoreThan(page: Page, bytes = 0) {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __recordedBytes?: number[] }).__recordedBytes?.at(-1) ?? 0))
    .toBeGreaterThan(bytes);
}

/**
 * A short press of a camera screen's Capture button (a tap, a click, Enter): a photo, on a machine of
 * any speed. The button records a video once a press has lasted HOLD_TO_RECORD_MS (300 ms, a timer
 * started by the press), and on a loaded machine the browser can take that long between the press and
 * the release Playwright sends. So the page's clock stands still while `press` runs, and the timer can
 * only be cleared by the release; camera frames come from the video itself and go on meanwhile.
 */
export async function tapCapture(page: Page, press: () => Promise<void>): Promise<void> {
  // A second ahead of now, so that the page's (real) clock is never past it; timers due by then fire once.
  await page.clock.pauseAt(Date.now() + 1000);
  try {
    await press();
  } finally {
    await page.clock.resume();
  }
}
