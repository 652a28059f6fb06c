import type { RemoteCallConfig } from "./config.server";
import { ProviderError, type Capability } from "./errors.server";

/**
 * Where a provider's download links may point (a provider answering with a link must not make this
 * server fetch its own network: 169.254.169.254, localhost admin ports, the database):
 * - the host of the provider's configured base URL (AI_IMAGE_BASE_URL, AI_BASE_URL, REPLICATE_BASE_URL…),
 *   port included;
 * - the hosts named in AI_DOWNLOAD_HOSTS (and the provider's own well-known file host, e.g.
 *   replicate.delivery for api.replicate.com): `host` (its default port), `host:port`, or `*.domain`
 *   (any subdomain of it, default port).
 * https only when the base URL is https; http too only when the base URL itself is http (a local server).
 */
export interface DownloadPin {
  baseUrl: string;
  hosts: readonly string[];
}

/** Redirects a download may take, each checked against the pin. */
export const MAX_DOWNLOAD_REDIRECTS = 3;

/** The pin of a provider at `baseUrl`, with AI_DOWNLOAD_HOSTS (`call.downloadHosts`) and its own extra hosts. */
export function downloadPin(baseUrl: string, call: RemoteCallConfig, ownHosts: readonly string[] = []): DownloadPin {
  return { baseUrl, hosts: [...ownHosts, ...(call.downloadHosts ?? [])] };
}

function hostMatches(url: URL, entry: string): boolean {
  const match = /^(.*?)(?::(\d+))?$/.exec(entry.toLowerCase())!;
  const [pattern, port] = [match[1], match[2] ?? ""];
  // URL.port is "" for the scheme's default port; an entry without a port allows only that one.
  const defaultPort = url.protocol === "https:" ? "443" : "80";
  if ((url.port || defaultPort) !== (port || defaultPort)) return false;
  const hostname = url.hostname.toLowerCase();
  if (pattern.startsWith("*.")) return hostname.endsWith(pattern.slice(1)) && hostname.length > pattern.length - 1;
  return hostname === pattern;
}

/**
 * A provider-given download link (or a redirect's target): plain http(s) (never file:, data: or
 * anything else) to a host the pin allows. Anything else fails as the provider's bad answer (502).
 */
export function checkDownloadUrl(
  value: unknown,
  capability: Capability,
  provider: string,
  pin: DownloadPin,
  what: "link" | "redirect" = "link",
): string {
  let url: URL | null = null;
  if (typeof value === "string") {
    try {
      url = new URL(value);
    } catch {
      // falls through
    }
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new ProviderError(
      capability,
      provider,
      "bad_response",
      what === "link" ? "answer has no usable file link" : "download refused: a redirect to a non-http(s) address",
    );
  }
  const base = new URL(pin.baseUrl);
  if (url.protocol === "http:" && base.protocol !== "http:") {
    throw new ProviderError(
      capability,
      provider,
      "bad_response",
      `download refused: a ${what} to plain http while the provider's base URL is https`,
    );
  }
  const allowed =
    url.host.toLowerCase() === base.host.toLowerCase() || pin.hosts.some((entry) => hostMatches(url, entry));
  if (!allowed) {
    throw new ProviderError(
      capability,
      provider,
      "bad_response",
      `download refused: a ${what} to ${url.host}, neither the provider's host nor in AI_DOWNLOAD_HOSTS`,
    );
  }
  return url.toString();
}

const isRedirect = (status: number) =>
  status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/**
 * Fetches a provider-given download link under its pin: the link and each redirect are checked like
 * the link itself (redirects followed here, not by fetch), and after MAX_DOWNLOAD_REDIRECTS the
 * download fails. `init` is one attempt's request (its method, headers, body and signal).
 */
export async function fetchPinned(
  link: string,
  init: RequestInit,
  capability: Capability,
  provider: string,
  pin: DownloadPin,
): Promise<Response> {
  let url = checkDownloadUrl(link, capability, provider, pin);
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { ...init, redirect: "manual" });
    if (!isRedirect(response.status)) return response;
    const location = response.headers.get("location");
    await response.body?.cancel().catch(() => {});
    if (hop >= MAX_DOWNLOAD_REDIRECTS) {
      throw new ProviderError(
        capability,
        provider,
        "bad_response",
        `download refused: more than ${MAX_DOWNLOAD_REDIRECTS} redirects`,
      );
    }
    if (!location)
      throw new ProviderError(capability, provider, "bad_response", "download refused: a redirect without a Location");
    let next: string;
    try {
      next = new URL(location, url).toString();
    } catch {
      throw new ProviderError(
        capability,
        provider,
        "bad_response",
        "download refused: a redirect to an unreadable Location",
      );
    }
    url = checkDownloadUrl(next, capability, provider, pin, "redirect");
  }
}
