/**
 * A share link's path, `/s/{token}`, as the router sees it. The token is the link's only secret, so no
 * log line may carry it: the request log, React Router's own error output and anything else written to
 * the console mask it (app/lib/observe/log.server.ts, docs/decisions/0088). Masking the raw path is not
 * enough: `/x/../s/T`, `/%2e/s/T`, `/s/./T`, `/%53/T` and `/S/T` all reach the shared page, so the path
 * is first normalised as the URL parser and React Router normalise it. Pure, so the server (through the
 * build), the app's lib and its doors share it.
 */

/**
 * The path React Router matches for a request target: dot segments resolved (WHATWG URL, `%2e`
 * included, `\` read as `/`), then each segment percent-decoded, with a decoded `/` kept as `%2F`
 * (React Router's `decodePath`). A segment that does not decode is kept as it is.
 */
export function routerPathOf(raw: string): string {
  return urlPathOf(raw)
    .split("/")
    .map((segment) => decodedOnce(segment).replace(/\//g, "%2F"))
    .join("/");
}

/** Whether the router could take this path for a share link's (matching ignores case; `%2F` counts as `/`). */
export function isSharePath(raw: string): boolean {
  return shareRest(raw) !== null;
}

/**
 * Every path-like run in `text` (with its origin, if any) that is a share link's path becomes `/s/***`
 * plus what follows the token (`/file/…`); the whole token segment goes, so `T.data` goes too.
 */
export function maskSharePaths(text: string): string {
  if (!text.includes("/")) return text;
  return text.replace(PATH_RUN, (run: string, origin: string | undefined, path: string) => {
    const rest = shareRest(path);
    return rest === null ? run : `${origin ?? ""}/s/***${rest}`;
  });
}

/** A path, or an absolute URL, up to its query string or fragment; quotes, spaces and angle brackets end it. */
const PATH_RUN = /(https?:\/\/[^\s/"'<>]+)?(\/[^\s"'<>?#]*)/g;

/** A share token is long (32 characters); a short "token" segment is not searched for in what follows it. */
const LONG_ENOUGH_TO_SEARCH = 8;

/** Characters after which the URL parser's path differs from the raw one (dot segments, escapes, `\`, tabs). */
const NORMALISED_BY_URL = /[%.\\\t\n\r]/;

/**
 * What follows the token when `raw` is a share link's path ("" for the page itself), else null.
 * The strict side: the path as the URL parser and the router read it, and the raw path too (a
 * `/s/T/../x` reaches another page, but still names the token), each decoded until it no longer
 * changes, with `%2F` read as `/`.
 */
function shareRest(raw: string): string | null {
  const normalised = !raw.startsWith("/") || NORMALISED_BY_URL.test(raw) ? urlPathOf(raw) : raw;
  const rest = restAfterToken(normalised);
  if (rest !== null || normalised === raw) return rest;
  return restAfterToken(raw);
}

/** The segments after `s` and the token, found in the fully decoded segments; null if the path is not a share link's. */
function restAfterToken(path: string): string | null {
  if (!/[sS%]/.test(path)) return null;
  const segments = path.split("/");
  let sawS = false;
  for (let index = 0; index < segments.length; index++) {
    // A segment may decode to several (`s%2FT`); the router reads `%2F` as part of one, the strict side as `/`.
    for (const part of decodedFully(segments[index]).split("/")) {
      if (part === "") continue;
      if (!sawS) {
        if (part.toLowerCase() !== "s") return null;
        sawS = true;
        continue;
      }
      const following = segments.slice(index + 1);
      return following.length === 0 ? "" : "/" + withoutToken(following.join("/"), segments[index], part);
    }
  }
  return null;
}

/** The token again in what follows it (`/s/T/file/T`), raw or decoded, masked too. */
function withoutToken(rest: string, rawSegment: string, token: string): string {
  for (const secret of [rawSegment, token])
    if (secret.length >= LONG_ENOUGH_TO_SEARCH && rest.includes(secret)) rest = rest.split(secret).join("***");
  return rest;
}

/** The path part of a request target as WHATWG URL parses it; a target that does not parse, as it is. */
function urlPathOf(raw: string): string {
  try {
    // Appended, not resolved, so that `//s//T` stays a path (node-fetch-server builds the request's URL so).
    return new URL(raw.startsWith("/") ? `http://h${raw}` : raw, "http://h").pathname;
  } catch {
    return raw;
  }
}

function decodedOnce(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Decoded until it no longer changes (`%2573` → `%73` → `s`), at most a few times. */
function decodedFully(segment: string): string {
  let decoded = segment;
  for (let round = 0; round < 4 && decoded.includes("%"); round++) {
    const next = decodedOnce(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}
