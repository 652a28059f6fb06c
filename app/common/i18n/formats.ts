import { directionOf } from "./languages";

/**
 * Numbers, sizes, dates and durations in the screen's language, through Intl (docs/translating.md#formats).
 * Times are shown in UTC, as before languages, and say so; the zone is the time zone work's.
 * Each formatter is made once per language and options, then kept.
 */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function locale(language: string): string {
  return language === "en-XA" ? "en" : language;
}

function kept<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(
  key: string,
  make: () => T,
): T {
  let format = cache.get(key) as T | undefined;
  if (!format) {
    format = make();
    cache.set(key, format);
  }
  return format;
}

export function formatNumber(language: string, value: number, options: Intl.NumberFormatOptions = {}): string {
  const key = `n|${language}|${JSON.stringify(options)}`;
  return kept(key, () => new Intl.NumberFormat(locale(language), options)).format(value);
}

export function formatPercent(language: string, fraction: number): string {
  return formatNumber(language, fraction, { style: "percent", maximumFractionDigits: 0 });
}

const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB"] as const;

/**
 * A size in binary steps with IEC symbols, as the limits are stated ("25 MiB"), the number in the
 * language's own digits and decimal sign ("1,5 MiB" in German). In English it is exactly
 * app/common/bytes.ts's text.
 */
export function formatSize(language: string, bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const number = Number.isInteger(value) ? value : Math.round(value * 10) / 10;
  const text = `${formatNumber(language, number, { minimumFractionDigits: Number.isInteger(value) ? 0 : 1, maximumFractionDigits: 1, useGrouping: false })} ${BYTE_UNITS[unit]}`;
  // Inside right-to-left text the number and its Latin unit are one left-to-right run ("1.5 KiB", not
  // "KiB 1.5"): isolated with Unicode's left-to-right isolate.
  return directionOf(language) === "rtl" ? `\u2066${text}\u2069` : text;
}

const DATE_STYLES = {
  date: { dateStyle: "long" },
  dateTime: { dateStyle: "medium", timeStyle: "short" },
  dateTimeSeconds: { dateStyle: "medium", timeStyle: "medium" },
  time: { timeStyle: "short" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

/** A moment (ISO text, epoch milliseconds or a Date) in the language, in UTC, with the zone named. */
export function formatDateTime(
  language: string,
  when: string | number | Date,
  style: keyof typeof DATE_STYLES = "dateTime",
  timeZone = "UTC",
): string {
  const key = `d|${language}|${style}|${timeZone}`;
  const format = kept(key, () => new Intl.DateTimeFormat(locale(language), { ...DATE_STYLES[style], timeZone }));
  const text = format.format(new Date(when));
  return style === "date" ? text : `${text} ${timeZone}`;
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/** "3 minutes ago", "in 2 hours", in the language. */
export function formatRelative(language: string, when: string | number | Date, now: number = Date.now()): string {
  let amount = (new Date(when).getTime() - now) / 1000;
  const format = kept(`r|${language}`, () => new Intl.RelativeTimeFormat(locale(language), { numeric: "auto" }));
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), "year");
}

/** A duration in seconds as the language writes it ("1 min, 5 sec"), by Intl.NumberFormat's units. */
export function formatDuration(language: string, seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  const part = (value: number, unit: "minute" | "second") =>
    formatNumber(language, value, { style: "unit", unit, unitDisplay: "short" });
  if (minutes === 0) return part(rest, "second");
  return rest === 0 ? part(minutes, "minute") : `${part(minutes, "minute")} ${part(rest, "second")}`;
}
