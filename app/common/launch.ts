import { formatNumber } from "~/common/i18n/formats";
import { interpolate, msg, type Translator } from "~/common/i18n/translate";

/** docs/screens.md#screens-and-routes and #constants-and-limits: the 100-Day Launch window and the New York clock shown on the landing screen. */
export const LAUNCH_START = Date.parse("2025-08-23T00:00:00-04:00");
export const LAUNCH_END = Date.parse("2025-12-01T00:00:00-05:00");
export const CLOCK_TIME_ZONE = "America/New_York";

export function launchProgressPercent(now: number): number {
  const percent = ((now - LAUNCH_START) / (LAUNCH_END - LAUNCH_START)) * 100;
  return Math.min(100, Math.max(0, percent));
}

/** "45.7% to 100-Day Launch", one decimal, in the screen's language (`t` and `language` from useT). */
export function launchProgressLabel(now: number, t: Translator["t"] = interpolate, language = "en"): string {
  // Rounded to one decimal first, as before languages; Intl then writes it with the language's signs.
  const percent = Number(launchProgressPercent(now).toFixed(1)) / 100;
  return t("{{percent}} to 100-Day Launch", {
    percent: formatNumber(language, percent, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  });
}

/** After the window the clamped bar reads "100.0%" for good: a line says the launch happened, so the page does not look abandoned. */
export function launchHappened(now: number): boolean {
  return now >= LAUNCH_END;
}

export const LAUNCHED_TEXT = msg("Launched on December 1, 2025.");

const clockFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: CLOCK_TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: true,
});

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * "09:05:07 PM": built from parts so Node and the browser produce the same characters. In another
 * language, the language's own way with its own hour cycle ("21:05:07"), any space in it a plain one.
 */
export function newYorkTime(now: number, language = "en"): string {
  if (language !== "en" && language !== "en-XA") {
    let format = clockFormats.get(language);
    if (!format) {
      format = new Intl.DateTimeFormat(language, {
        timeZone: CLOCK_TIME_ZONE,
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
      clockFormats.set(language, format);
    }
    return format
      .formatToParts(now)
      .map((part) => (part.type === "literal" ? part.value.replace(/\s/gu, " ") : part.value))
      .join("");
  }
  const parts = Object.fromEntries(clockFormat.formatToParts(now).map((part) => [part.type, part.value]));
  return `${parts.hour}:${parts.minute}:${parts.second} ${String(parts.dayPeriod).toUpperCase()}`;
}
