/**
 * A short human label for the device a sign-in came from, read from its User-Agent ("Chrome on
 * Linux", "Safari on iPhone", "curl"): enough for a person to recognise their own sessions on the
 * account screen, not a fingerprint. Unknown or missing: "Unknown device". At most 100 characters.
 */
export const UNKNOWN_DEVICE = "Unknown device";

const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bCriOS\/|Chrom(?:e|ium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

/** Command-line clients and libraries: their own name. */
const TOOLS: Array<[RegExp, string]> = [
  [/^curl\//i, "curl"],
  [/^Wget\//i, "Wget"],
  [/^python-requests\//i, "Python requests"],
  [/^python-httpx\//i, "Python httpx"],
  [/^node-fetch|^undici|^node$/i, "Node.js"],
  [/^HTTPie\//i, "HTTPie"],
  [/^PostmanRuntime\//i, "Postman"],
];

export function deviceLabel(userAgent: string | null | undefined): string {
  const agent = (userAgent ?? "").trim();
  if (!agent) return UNKNOWN_DEVICE;
  for (const [pattern, name] of TOOLS) if (pattern.test(agent)) return name;
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser || system) return (browser ?? system)!;
  // Something else: its product token (the first word before a slash), if it looks like one.
  const product = /^([A-Za-z][\w.-]{0,40})\//.exec(agent)?.[1];
  return product ?? UNKNOWN_DEVICE;
}
