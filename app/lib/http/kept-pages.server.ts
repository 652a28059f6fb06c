import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { TOAST_COOKIE } from "../toast.server";
import { createPageKeeper, type PageKeeper } from "./page-keeper.server";
import { isDocumentRequest, keptBytesResponse } from "./responder.server";

/** Markup held at most, over every person's kept pages in this process. */
const KEPT_PAGE_BYTES = 32 * 1024 * 1024;

/**
 * A kept page may be stored by the browser but must be revalidated before each use: it comes back
 * with If-None-Match, and an unchanged page is a 304 with no body. Never stored by a shared cache.
 */
export const KEPT_PAGE_CACHE_CONTROL = "private, no-cache";

let keeper: PageKeeper | null = null;

/** Says which answers came from memory (browser dev tools show Server-Timing; the tests read it). */
const KEPT = 'page;desc="kept"';
const RENDERED = 'page;desc="rendered"';

export interface KeptPageOptions {
  /** The signed-in person's id, or null (the page is then rendered as usual, never kept). */
  personOf: (context: Readonly<RouterContextProvider>) => string | null;
  /** A number that moves whenever anything the page shows changes, on any instance (it lives in the database). */
  versionOf: (personId: string) => Promise<number | null>;
  /** The session cookie's name: it rotates and says only who, which the key already holds. */
  sessionCookie: string;
}

/**
 * Route middleware for a personal page rendered once and answered from memory until what it shows
 * changes (docs/decisions/0017 and 0031). The page is kept under everything it is built from: the
 * person, `versionOf(person)`, the URL, and the cookies other than the session (the preferences:
 * theme, plan, tool order). So a page may show only the person's identity, cookie preferences and
 * what `versionOf` counts. Who the person is was decided before (the session middleware); this only
 * keeps the person's own page.
 *
 * HTTP caching: every answer carries a weak ETag (the markup's hash without its nonce, so the same on
 * every instance) and `Cache-Control: private, no-cache`; a browser's If-None-Match for the page as
 * it is now is answered 304 without a body. A 304 carries no Content-Security-Policy: the browser
 * keeps the stored page's, whose nonce matches the stored markup.
 *
 * Not kept: anything but a 200 HTML document for a signed-in GET; a page that sets a cookie; a page
 * that shows a flash toast (shown once). Every answer from memory gets a fresh CSP nonce.
 */
export function keepPersonalPages({ personOf, versionOf, sessionCookie }: KeptPageOptions): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    const personId = personOf(context);
    if (!personId || !isDocumentRequest(request)) return next();
    const cookies = preferenceCookies(request.headers.get("Cookie"), sessionCookie);
    if (cookies === null) return next();
    const version = await versionOf(personId);
    if (version === null) return next();

    keeper ??= createPageKeeper({ maxBytes: KEPT_PAGE_BYTES });
    const key = `${personId}\n${version}\n${request.url}\n${cookies}`;
    const validators = request.headers.get("If-None-Match");
    const keptEtag = keeper.etagOf(key);
    if (keptEtag && matches(validators, keptEtag)) return notModified(keptEtag, KEPT);
    const kept = keptEtag ? keeper.take(key) : null;
    if (kept) return keptBytesResponse(kept.body, { status: kept.status, headers: [...kept.headers, ...cachingHeaders(kept.etag, KEPT)] });

    const response = await next();
    const cacheable =
      response.status === 200 &&
      /^text\/html/i.test(response.headers.get("Content-Type") ?? "") &&
      !response.headers.has("Set-Cookie") &&
      !response.headers.has("Cache-Control");
    if (!cacheable) return response;
    // Bytes throughout: the page is neither decoded to keep it nor encoded again to send it.
    const body = new Uint8Array(await response.arrayBuffer());
    const headers = [...response.headers].filter(([name]) => name !== "content-length");
    const etag = keeper.keep(key, { status: response.status, headers, body });
    if (matches(validators, etag)) return notModified(etag, RENDERED);
    return keptBytesResponse(body, { status: response.status, headers: [...headers, ...cachingHeaders(etag, RENDERED)] });
  };
}

function cachingHeaders(etag: string, timing: string): [string, string][] {
  return [
    ["ETag", etag],
    ["Cache-Control", KEPT_PAGE_CACHE_CONTROL],
    ["Server-Timing", timing],
  ];
}

function notModified(etag: string, timing: string): Response {
  return new Response(null, { status: 304, headers: cachingHeaders(etag, timing) });
}

/** Whether If-None-Match names this ETag (weak comparison, as RFC 9110 asks for If-None-Match). */
function matches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === opaque);
}

/**
 * The request's cookies other than the session, as sent; null when a flash toast is waiting (that
 * page is shown once, never kept).
 */
function preferenceCookies(header: string | null, sessionCookie: string): string | null {
  if (!header) return "";
  const pairs = header.split(";").map((pair) => pair.trim()).filter(Boolean);
  if (pairs.some((pair) => pair.startsWith(`${TOAST_COOKIE}=`))) return null;
  return pairs.filter((pair) => !pair.startsWith(`${sessionCookie}=`)).join("; ");
}
