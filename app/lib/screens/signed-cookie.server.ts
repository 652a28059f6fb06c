import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";
import type { Cookie, CookieOptions, CookieParseOptions, CookieSerializeOptions } from "react-router";

/**
 * React Router's `createCookie`, byte for byte, minus its per-call cost. React Router signs and checks
 * with WebCrypto, importing the HMAC key again on every parse and serialize (two promises and a thread
 * pool round trip each); here each secret becomes a key once and node:crypto's HMAC runs synchronously.
 *
 * The format is React Router's own, so cookies either one wrote stay valid for the other:
 * value = base64(UTF-8 JSON), signed as `value + "." + base64(HMAC-SHA256(secret, value))` without the
 * `=` padding, URI-encoded into the header. Secret rotation as React Router's: the first secret signs,
 * any of them verifies. The Set-Cookie attributes are written in the same order as the `cookie`
 * package React Router uses (Max-Age, Domain, Path, Expires, HttpOnly, Secure, Partitioned, Priority,
 * SameSite). Pass the cookie to `createCookieSessionStorage({ cookie })`, which accepts any `Cookie`.
 * `renamedFrom`: the name the cookie had before; a browser's cookie under it is ignored and expired
 * (dropOldCookies). `secrets` may be a function, called on the first signature or check, so that
 * importing a module that makes a cookie reads no secret (app/lib/settings/keys.server.ts: the session secret
 * may be a file it creates).
 */
export function createSignedCookie(
  name: string,
  cookieOptions: Omit<CookieOptions, "secrets"> & {
    secrets?: string[] | (() => string[]);
    renamedFrom?: string | null;
  } = {},
): Cookie {
  const { secrets = [], renamedFrom, ...options } = { path: "/", sameSite: "lax" as const, ...cookieOptions };
  // RFC 6265bis: a `__Host-` cookie is Secure, Path=/ and has no Domain, or browsers drop it.
  if (name.startsWith("__Host-") && (!options.secure || options.path !== "/" || options.domain)) {
    throw new TypeError(`cookie ${name}: a __Host- cookie must be Secure, with Path=/ and no Domain`);
  }
  let prepared: KeyObject[] | undefined;
  const keysOf = (): KeyObject[] =>
    (prepared ??= (typeof secrets === "function" ? secrets() : secrets).map((secret) =>
      createSecretKey(Buffer.from(secret, "utf8")),
    ));
  // The attributes are the same on every serialize that adds no options of its own: written once.
  const attributes = setCookieAttributes(options);
  if (renamedFrom && renamedFrom !== name) {
    // Expired as React Router's destroySession does, on the Path and attributes it was set with.
    oldCookies.set(
      renamedFrom,
      `${renamedFrom}=${setCookieAttributes({ ...options, maxAge: undefined, expires: new Date(0) })}`,
    );
  }

  const encodeValue = (value: unknown): string => {
    const encoded = Buffer.from(JSON.stringify(value), "utf8").toString("base64");
    const keys = keysOf();
    return keys.length > 0 ? `${encoded}.${signature(encoded, keys[0])}` : encoded;
  };
  // Signed values this cookie's keys already verified: a browser sends the same cookie with every
  // request, and its HMAC was the larger part of reading it (docs/decisions/0083-the-request-path.md).
  // Only the exact string verified is remembered; any other string is checked in full.
  const verified = new VerifiedValues();
  const decodeValue = (value: string): unknown => {
    const keys = keysOf();
    if (keys.length === 0) return decodeData(value);
    let unsigned = verified.unsigned(value);
    if (unsigned === null) {
      unsigned = unsign(value, keys);
      if (unsigned !== null) verified.remember(value);
    }
    return unsigned === null ? null : decodeData(unsigned);
  };

  return {
    get name() {
      return name;
    },
    get isSigned() {
      return typeof secrets === "function" || secrets.length > 0;
    },
    get expires() {
      return typeof options.maxAge !== "undefined" ? new Date(Date.now() + options.maxAge * 1e3) : options.expires;
    },
    async parse(cookieHeader: string | null, parseOptions?: CookieParseOptions) {
      if (!cookieHeader) return null;
      const raw = readCookie(cookieHeader, name, parseOptions?.decode ?? options.decode);
      // Absent: null; present but empty (or not a string): "", as React Router's parse.
      if (raw === undefined) return null;
      return raw === "" ? "" : decodeValue(raw);
    },
    async serialize(value: unknown, serializeOptions?: CookieSerializeOptions) {
      const encoded = value === "" ? "" : encodeValue(value);
      const merged = serializeOptions ? { ...options, ...serializeOptions } : options;
      const encode = merged.encode ?? encodeURIComponent;
      const cookieValue = encoded ? encode(encoded) : "";
      if (!COOKIE_VALUE.test(cookieValue)) throw new TypeError(`argument val is invalid: ${encoded}`);
      return `${name}=${cookieValue}${serializeOptions ? setCookieAttributes(merged) : attributes}`;
    },
  };
}

/**
 * The name a cookie takes: `__Host-<name>` when it is Secure (the browser then keeps it only for this
 * host, Path=/, set over HTTPS, so neither a sibling subdomain nor plain HTTP can plant or overwrite
 * it), else `<name>` as it is (COOKIE_SECURE=false, development). `__session` becomes `__Host-session`.
 */
export function hostCookieName(name: string, secure: boolean): string {
  return secure ? `__Host-${name.replace(/^_+/, "")}` : name;
}

/**
 * Cookies that had another name before (createSignedCookie's `renamedFrom`): by their old name, the
 * Set-Cookie that removes the old cookie from the browser.
 */
const oldCookies = new Map<string, string>();

/**
 * A cookie the browser still holds under its old name (e.g. `__session` from before `__Host-`) is
 * never read: the value's signature does not cover its name, so a value planted under the old name
 * (by a sibling subdomain, or over plain HTTP, which `__Host-` rules out for the new name) would
 * otherwise sign the browser in as whoever planted it. Its pair is dropped from the request's Cookie
 * header, so no reader of this request sees it, and the answer expires it (`expiredCookies`).
 * Someone holding only an old session cookie signs in again.
 */
export function dropOldCookies(request: Request): OldCookies | null {
  if (oldCookies.size === 0) return null;
  const header = request.headers.get("Cookie");
  if (!header) return null;
  // Most requests carry no old cookie: the header is split only when an old name appears in it at all
  // (a pair whose trimmed name is an old name always does).
  if (![...oldCookies.keys()].some((oldName) => header.includes(oldName))) return null;
  const expired = new Set<string>();
  const kept = header.split(";").filter((pair) => {
    const eq = pair.indexOf("=");
    const expiry = eq === -1 ? undefined : oldCookies.get(pair.slice(0, eq).trim());
    if (expiry) expired.add(expiry);
    return !expiry;
  });
  if (expired.size === 0) return null;
  const rest = kept.join(";").trim();
  if (rest) request.headers.set("Cookie", rest);
  else request.headers.delete("Cookie");
  return { expiredCookies: () => [...expired] };
}

export interface OldCookies {
  /** The Set-Cookie headers that expire the old cookies the request carried. */
  expiredCookies(): string[];
}

/** How many signed values a cookie remembers as verified; the oldest is forgotten first beyond it. */
export const VERIFIED_VALUES_MAX = 4_096;

/**
 * The signed values (`value.signature`) whose signature one of the cookie's keys made. The keys are
 * fixed once prepared, so a string verified once verifies again: remembering it skips nothing but the
 * recomputation. What the value names (a session, a token) is still checked by its reader each time.
 */
class VerifiedValues {
  private readonly values = new Set<string>();

  /** The value without its signature when `signed` was verified before, else null. */
  unsigned(signed: string): string | null {
    return this.values.has(signed) ? signed.slice(0, signed.lastIndexOf(".")) : null;
  }

  remember(signed: string): void {
    if (this.values.size >= VERIFIED_VALUES_MAX) this.values.delete(this.values.values().next().value!);
    this.values.add(signed);
  }
}

function signature(value: string, key: KeyObject): string {
  return createHmac("sha256", key).update(value, "utf8").digest("base64").replace(/=+$/, "");
}

/** The signed value without its signature when one of the keys made it, else null (as React Router's unsign). */
function unsign(cookie: string, keys: KeyObject[]): string | null {
  const index = cookie.lastIndexOf(".");
  const value = cookie.slice(0, index);
  const given = Buffer.from(cookie.slice(index + 1), "base64");
  if (given.length !== 32) return null; // an HMAC-SHA256 is 32 bytes
  for (const key of keys) {
    const expected = createHmac("sha256", key).update(value, "utf8").digest();
    if (timingSafeEqual(expected, given)) return value;
  }
  return null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** React Router's decodeData: base64 of UTF-8 JSON; anything that does not decode is `{}`. */
function decodeData(value: string): unknown {
  try {
    return JSON.parse(utf8.decode(Buffer.from(value, "base64")));
  } catch {
    return {};
  }
}

/**
 * One cookie's value from a Cookie header, as the `cookie` package's parse finds it: the first pair
 * with that name, spaces and tabs trimmed, URI-decoded when it holds a `%` (kept as is if that fails).
 */
function readCookie(
  header: string,
  name: string,
  decode: (value: string) => string | undefined = defaultDecode,
): string | undefined {
  const length = header.length;
  let found = false;
  let index = 0;
  while (index < length) {
    let end = header.indexOf(";", index);
    if (end === -1) end = length;
    const eq = header.indexOf("=", index);
    if (eq !== -1 && eq < end && trimmed(header, index, eq) === name) {
      // A value a custom decode turns into undefined leaves the name to a later pair, as in `cookie`.
      const value = decode(trimmed(header, eq + 1, end));
      if (value !== undefined) return value;
      found = true;
    }
    index = end + 1;
  }
  return found ? "" : undefined;
}

function trimmed(text: string, start: number, end: number): string {
  while (start < end && (text.charCodeAt(start) === 0x20 || text.charCodeAt(start) === 0x09)) start++;
  while (end > start && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
  return text.slice(start, end);
}

function defaultDecode(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// The `cookie` package's checks (RFC 6265).
const COOKIE_VALUE = /^[\u0021-\u003A\u003C-\u007E]*$/;
const DOMAIN = /^([.]?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)([.][a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const PATH = /^[\u0020-\u003A\u003D-\u007E]*$/;
const PRIORITY = { low: "Low", medium: "Medium", high: "High" } as const;
const SAME_SITE = { strict: "Strict", lax: "Lax", none: "None" } as const;

/** The `; Max-Age=...; Path=/; HttpOnly; ...` tail of a Set-Cookie, as the `cookie` package writes it. */
function setCookieAttributes(options: CookieSerializeOptions): string {
  let text = "";
  if (options.maxAge !== undefined) {
    if (!Number.isInteger(options.maxAge)) throw new TypeError(`option maxAge is invalid: ${options.maxAge}`);
    text += `; Max-Age=${options.maxAge}`;
  }
  if (options.domain) {
    if (!DOMAIN.test(options.domain)) throw new TypeError(`option domain is invalid: ${options.domain}`);
    text += `; Domain=${options.domain}`;
  }
  if (options.path) {
    if (!PATH.test(options.path)) throw new TypeError(`option path is invalid: ${options.path}`);
    text += `; Path=${options.path}`;
  }
  if (options.expires) {
    if (!(options.expires instanceof Date) || !Number.isFinite(options.expires.valueOf())) {
      throw new TypeError(`option expires is invalid: ${String(options.expires)}`);
    }
    text += `; Expires=${options.expires.toUTCString()}`;
  }
  if (options.httpOnly) text += "; HttpOnly";
  if (options.secure) text += "; Secure";
  if (options.partitioned) text += "; Partitioned";
  if (options.priority) {
    const priority = PRIORITY[String(options.priority).toLowerCase() as keyof typeof PRIORITY];
    if (!priority) throw new TypeError(`option priority is invalid: ${String(options.priority)}`);
    text += `; Priority=${priority}`;
  }
  if (options.sameSite) {
    const sameSite =
      options.sameSite === true
        ? "Strict"
        : SAME_SITE[String(options.sameSite).toLowerCase() as keyof typeof SAME_SITE];
    if (!sameSite) throw new TypeError(`option sameSite is invalid: ${String(options.sameSite)}`);
    text += `; SameSite=${sameSite}`;
  }
  return text;
}
