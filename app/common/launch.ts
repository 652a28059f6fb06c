/** docs/screens.md#screens-and-routes and #constants-and-limits: the 100-Day Launch window and the New York clock shown on the landing screen. */
export const LAUNCH_START = Date.parse("2025-08-23T00:00:00-04:00");
export const LAUNCH_END = Date.parse("2025-12-01T00:00:00-05:00");
export const CLOCK_TIME_ZONE = "America/New_York";

export function launchProgressPercent(now: number): number {
  const percent = ((now - LAUNCH_START) / (LAUNCH_END - LAUNCH_START)) * 100;
  return Math.min(100, Math.max(0, percent));
}

export function launchProgressLabel(now: number): string {
  return `${launchProgressPercent(now).toFixed(1)}% to 100-Day Launch`;
}

/** After the window the clamped bar reads "100.0%" for good: a line says the launch happened, so the page does not look abandoned. */
export function launchHappened(now: number): boolean {
  return now >= LAUNCH_END;
}

export const LAUNCHED_TEXT = "Launched on December 1, 2025.";

const clockFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: CLOCK_TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: true,
});

/** "09:05:07 PM": built from parts so Node and the browser produce the same characters. */
export function newYorkTime(now: number): string {
  const parts = Object.fromEntries(clockFormat.formatToParts(now).map((part) => [part.type, part.value]));
  return `${parts.hour}:${parts.minute}:${parts.second} ${String(parts.dayPeriod).toUpperCase()}`;
}
