import { env } from "~/lib/settings/env.server";
import { requestHost, requestScheme, trustProxyEnabled } from "./security.server";

/**
 * The origin people reach the studio at, for links that leave it and must come back (single sign-on's
 * redirect URI): PUBLIC_URL when set; else the request's own, where a trusted proxy's X-Forwarded-Proto
 * and X-Forwarded-Host (first hop) count, as in the cross-origin check, and only then.
 */
export function publicOrigin(
  request: Request,
  { trustProxy = trustProxyEnabled(), publicUrl = env.publicUrl } = {},
): string {
  if (publicUrl) return publicUrl;
  const url = new URL(request.url);
  const origin = `${requestScheme(request, { trustProxy, publicUrl: null })}://${requestHost(request, trustProxy)}`;
  // A Host header that is no host (spaces, a path) gives no origin: the request's URL's, as parsed.
  try {
    const parsed = new URL(origin);
    return parsed.origin === "null" ? url.origin : parsed.origin;
  } catch {
    return url.origin;
  }
}
