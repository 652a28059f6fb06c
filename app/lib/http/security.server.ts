import type { MiddlewareFunction } from "react-router";
import { STOCK_PHOTO_BASE } from "~/common/media/stock-photo";
import { env } from "~/lib/settings/env.server";
import { isTrustedPeer } from "./client-address.server";
import { noteError } from "./outage-middleware.server";
import { apiError } from "./responder.server";

/**
 * Headers every response carries (securityMiddleware below; the server gives the same to static
 * files through the build's `staticFileHeaders`); the document's CSP (with its nonce) is set in
 * entry.server.tsx.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** HSTS for a year, subdomains included (the `__Host-` cookies' sibling-subdomain threat needs them on HTTPS too). */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/**
 * The Strict-Transport-Security header for an answer, or null: when PUBLIC_URL is https, or when the
 * connection's peer is a trusted proxy (TRUST_PROXY) whose X-Forwarded-Proto says https. Never on
 * plain HTTP otherwise: a client's own X-Forwarded-Proto says nothing. The server sets it on every
 * answer, client files and its own refusals included (server/, through the build).
 */
export function strictTransportSecurity(
  forwardedProto: string | null | undefined,
  peerAddress: string | undefined,
  publicUrl = env.publicUrl,
): string | null {
  if (publicUrl?.startsWith("https:")) return STRICT_TRANSPORT_SECURITY;
  return firstHop(forwardedProto) === "https" && isTrustedPeer(peerAddress) ? STRICT_TRANSPORT_SECURITY : null;
}

/** The first (client-most) value of an X-Forwarded-* header, trimmed and lowercased. */
function firstHop(header: string | null | undefined): string | undefined {
  return header?.split(",")[0]?.trim().toLowerCase() || undefined;
}

export function contentSecurityPolicy(nonce: string, isDevelopment: boolean): string {
  return [
    "default-src 'self'",
    // Vite's dev client needs eval for HMR; production allows only our nonce'd and same-origin scripts.
    `script-src 'self' 'nonce-${nonce}'${isDevelopment ? " 'unsafe-eval'" : ""}`,
    // React style attributes and react-toastify's injected stylesheet.
    "style-src 'self' 'unsafe-inline'",
    // The image generator shows the stock photo in docs/screens.md, loaded from LoremFlickr (only that origin; decision 0021).
    `img-src 'self' data: blob: ${STOCK_PHOTO_BASE}`,
    "media-src 'self' data: blob:",
    `connect-src 'self'${isDevelopment ? " ws: wss:" : ""}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The shared page's CSP (docs/decisions/0070-the-shared-page.md): the page renders no script at all, so
 * none may run, and it loads nothing but its own stylesheet, font, icons and the shared files.
 */
export function sharedPageContentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    "script-src 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "media-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Every answer under /s/ (the shared page, its files, and their 404, 405, 410, 429 and 503 alike;
 * docs/decisions/0070, 0090): kept out of search engines, sending no Referer onwards, never cached,
 * and the shared page's CSP, which lets no script run.
 */
export const SHARED_HEADERS: Readonly<Record<string, string>> = {
  "X-Robots-Tag": "noindex",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

/**
 * A request path as React Router matches it: dot segments resolved and `%2e` read as a dot (WHATWG
 * URL, as the Fetch request's own URL has it), then each segment decoded (`/%53/T` is `/S/T`, and
 * routes match whatever the case). A segment that does not decode stays as it is.
 */
function routerPathOf(path: string): string {
  // Joined to an origin, not resolved against one: "//s/T" stays a path, not a host.
  const pathname = new URL(`http://path.invalid${path.startsWith("/") ? "" : "/"}${path}`).pathname;
  return pathname
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join("/");
}

/** A path under /s/ (its first segment `s`, whatever the case, and a token after it). */
const SHARED_PATH = /^\/+s\/+[^/]/i;
/** What the URL parser or the router would change in a path: escapes, `\`, tabs and line breaks, dot segments. */
const REWRITTEN = /[%\\\t\n\r]|\/\.\.?(?:\/|$)/;

/** Whether a path (raw, or a URL's pathname) is under /s/ as the router matches it (an encoded `/` counts too: the strict side). */
export function isSharedPath(path: string): boolean {
  // Every request asks (the server for its own refusals, securityMiddleware): most paths need no parsing.
  if (path.startsWith("/") && !REWRITTEN.test(path)) return SHARED_PATH.test(path);
  try {
    return SHARED_PATH.test(routerPathOf(path));
  } catch {
    return false;
  }
}

/**
 * The headers every answer to `path` must carry when it is under /s/ (SHARED_HEADERS and the shared
 * page's CSP), or null for any other path: securityMiddleware sets them on the app's answers, and the
 * server (through the build) on its own refusals.
 */
export function sharedPathHeaders(path: string): Record<string, string> | null {
  if (!isSharedPath(path)) return null;
  return { ...SHARED_HEADERS, "Content-Security-Policy": sharedPageContentSecurityPolicy() };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a reverse proxy is trusted (TRUST_PROXY: `true`, a hop count, or addresses such as `loopback`;
 * off when unset, `false` or `0`), as the server reads them for the client address. Only then do X-Forwarded-*
 * headers say anything: otherwise any client could write them.
 */
export function trustProxyEnabled(): boolean {
  return env.trustProxyEnabled;
}

/**
 * The scheme this request reached the studio over: a trusted proxy's X-Forwarded-Proto (first hop),
 * else PUBLIC_URL's, else the connection's own (http unless the server speaks TLS itself). Behind a
 * TLS proxy this must come from one of the first two, or https pages' writes look cross-origin.
 */
export function requestScheme(
  request: Request,
  { trustProxy = trustProxyEnabled(), publicUrl = env.publicUrl } = {},
): "http" | "https" {
  if (trustProxy) {
    const forwarded = firstHop(request.headers.get("X-Forwarded-Proto"));
    if (forwarded === "http" || forwarded === "https") return forwarded;
  }
  if (publicUrl) return publicUrl.startsWith("https:") ? "https" : "http";
  return new URL(request.url).protocol === "https:" ? "https" : "http";
}

/** The host this request was addressed to: the proxy's X-Forwarded-Host (first hop) only when the proxy is trusted. */
export function requestHost(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("X-Forwarded-Host")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.headers.get("Host") ?? new URL(request.url).host;
}

/**
 * A mutating request from another site is refused: cookies ride along on cross-site form posts, so
 * this closes CSRF for screens and for /api alike.
 * - With Origin: its scheme and host must be this request's (requestScheme, requestHost), or it must be
 *   one of ALLOWED_ORIGINS; "null" and garbage are refused. http://studio vs https://studio is another
 *   origin: a page served over plain HTTP (anyone on the path can write it) cannot post to the HTTPS one.
 * - Without Origin: a browser still says where the request came from in Sec-Fetch-Site; `cross-site`
 *   and `same-site` (another origin on our site) are refused. Requests with neither header (curl,
 *   server-to-server with a bearer token) carry no ambient browser credentials to abuse.
 */
export function isCrossOriginMutation(
  request: Request,
  trustProxy = trustProxyEnabled(),
  publicUrl = env.publicUrl,
): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.get("Origin");
  if (!origin) {
    const site = request.headers.get("Sec-Fetch-Site")?.trim().toLowerCase();
    return site === "cross-site" || site === "same-site";
  }
  if (origin === "null") return true;
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return true;
  }
  const originHost = originUrl.host;
  const sameOrigin =
    originHost === requestHost(request, trustProxy) &&
    originUrl.protocol === `${requestScheme(request, { trustProxy, publicUrl })}:`;
  if (sameOrigin) return false;
  return !env.allowedOrigins.some((allowed) => allowed === origin || allowed === originHost);
}

/** Applies header changes to a response, copying it when its headers are immutable. */
export function withHeaders(response: Response, apply: (headers: Headers) => void): Response {
  try {
    apply(response.headers);
    return response;
  } catch {
    // Some responses (e.g. from fetch) have immutable headers: copy them.
    const copy = new Response(response.body, response);
    apply(copy.headers);
    return copy;
  }
}

/**
 * The one cross-origin check and the one list of security headers (root middleware, so screens,
 * /api and files alike, under `react-router dev` as in production): cross-site writes are refused
 * with 403 (`{"detail"}` under /api), and every answer gets SECURITY_HEADERS it did not set itself.
 * Under /s/ every answer gets sharedPathHeaders too, whatever made it (sharedAnswer).
 */
export const securityMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const shared = sharedPathHeaders(new URL(request.url).pathname);
  if (shared) {
    const response = await sharedAnswer(request, context, next);
    return withHeaders(response, (headers) => {
      setSharedHeaders(headers, shared);
      setSecurityHeaders(headers);
    });
  }
  if (isCrossOriginMutation(request)) {
    const isApi = new URL(request.url).pathname.startsWith("/api/");
    throw isApi
      ? apiError(403, "Cross-origin request refused")
      : new Response("Cross-origin request refused", { status: 403 });
  }
  const response = await next();
  return withHeaders(response, setSecurityHeaders);
};

/**
 * An answer under /s/, whatever it is, so that it gets the shared headers: a cross-site write's 403 is
 * answered here, not thrown; a Response thrown inside (a resource route's refusal) is answered; an
 * error is logged as React Router would (the entry's handleError) and answered with its plain 500.
 * Nothing else changes: the root error boundary's pages (an outage's 503 too) come back as answers.
 */
async function sharedAnswer(request: Request, context: unknown, next: () => Promise<Response>): Promise<Response> {
  if (isCrossOriginMutation(request)) {
    return new Response("Cross-origin request refused", {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  try {
    return await next();
  } catch (error) {
    if (error instanceof Response) return error;
    noteError(error, { request, context });
    return new Response("Unexpected Server Error", { status: 500, headers: { "Content-Type": "text/plain" } });
  }
}

/**
 * The shared headers over whatever the answer had (the document's CSP with its nonce, the app's
 * Referrer-Policy); a file's own CSP stays, being stricter still (`sandbox`: it runs nothing either).
 */
function setSharedHeaders(headers: Headers, shared: Record<string, string>): void {
  for (const [name, value] of Object.entries(shared)) {
    if (name === "Content-Security-Policy" && headers.get(name)?.includes("sandbox")) continue;
    headers.set(name, value);
  }
}

/** SECURITY_HEADERS an answer did not set itself, set on it (one function for every answer). */
function setSecurityHeaders(headers: Headers): void {
  for (const name in SECURITY_HEADERS) if (!headers.has(name)) headers.set(name, SECURITY_HEADERS[name]);
}
