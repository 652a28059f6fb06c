import { env } from "./env.server";

/** Headers every response carries; the document's CSP (with its nonce) is set in entry.server.tsx. */
export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};

export function contentSecurityPolicy(nonce: string, isDevelopment: boolean): string {
  return [
    "default-src 'self'",
    // Vite's dev client needs eval for HMR; production allows only our nonce'd and same-origin scripts.
    `script-src 'self' 'nonce-${nonce}'${isDevelopment ? " 'unsafe-eval'" : ""}`,
    // React style attributes and react-toastify's injected stylesheet.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    `connect-src 'self'${isDevelopment ? " ws: wss:" : ""}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A mutating request whose Origin names another site is refused: cookies ride along on cross-site
 * form posts, so this closes CSRF for screens and for /api alike. Requests without Origin (curl,
 * server-to-server with a bearer token) carry no ambient browser credentials to abuse.
 */
export function isCrossOriginMutation(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.get("Origin");
  if (!origin) return false;
  if (origin === "null") return true;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const host = request.headers.get("X-Forwarded-Host") ?? request.headers.get("Host") ?? new URL(request.url).host;
  if (originHost === host) return false;
  return !env.allowedOrigins.some((allowed) => allowed === origin || allowed === originHost);
}
