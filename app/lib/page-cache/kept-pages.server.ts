import { createHash } from "node:crypto";
import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { TOAST_COOKIE } from "~/lib/screens/toast.server";
import { createKeptPageStore, type KeptPageStore } from "./kept-page-store.server";
import { isDocumentRequest, keptBytesResponse } from "~/lib/http/responder.server";
import { withHeaders } from "~/lib/http/security.server";

/** Markup held at most, over every person's kept pages in this process. */
const KEPT_PAGE_BYTES = 32 * 1024 * 1024;
/** Pages asked for once are remembered by key only (not kept), at most this many. */
const SEEN_ONCE_MAX = 20_000;

/**
 * A kept page may be stored by the browser but must be revalidated before each use: it comes back
 * with If-None-Match, and an unchanged page is a 304 with no body. Never stored by a shared cache.
 */
export const KEPT_PAGE_CACHE_CONTROL = "private, no-cache";

const BUILD_ID = typeof __STUDIO_BUILD_ID__ === "string" ? __STUDIO_BUILD_ID__ : "unbuilt";

let store: KeptPageStore | null = null;
const seenOnce = new Set<string>();

/** Says which answers came from memory (browser dev tools show Server-Timing; the tests read it). */
const KEPT = 'page;desc="kept"';
const RENDERED = 'page;desc="rendered"';
const UNCHANGED = 'page;desc="unchanged"';

export interface KeptPageOptions {
  /** The signed-in person's id, or null (the page is then rendered as usual, never kept). */
  personOf: (context: Readonly<RouterContextProvider>) => string | null;
  /** A number (or text) that moves whenever anything the page shows changes, on any instance (it lives in the database). */
  versionOf: (personId: string, context: Readonly<RouterContextProvider>) => Promise<number | string | null>;
  /** The session cookie's name: it rotates and says only who, which the key already holds. */
  sessionCookie: string;
  /**
   * The screen's language: a request's Accept-Language can choose it (app/auth/screen-language.server.ts),
   * so one person's page in German and in English are two pages.
   */
  languageOf: (context: Readonly<RouterContextProvider>, request: Request) => Promise<string>;
}

/**
 * Route middleware for a personal page that is a function of what its key names: the person,
 * `versionOf(person)`, the screen's language, the URL, the cookies other than the session (the
 * preferences: theme, plan, tool order) and the build (docs/decisions/0017 and 0035). So a page may show
 * only the person's identity, cookie preferences, language and what `versionOf` counts. Who the person is was decided before
 * (the session middleware); this only ever answers a person with their own page.
 *
 * - HTTP: every answer carries a weak ETag made from the key and `Cache-Control: private,
 *   no-cache`. A browser's If-None-Match for the page as it is now is a 304, answered before
 *   anything is rendered, on any instance. A 304 carries no Content-Security-Policy: the browser
 *   keeps the stored page's, whose nonce matches the stored markup.
 * - Memory: a page asked for a second time is kept (bytes, up to 32 MiB in all) and answered from
 *   memory, with a fresh CSP nonce, until its version moves. A URL seen once (a search, a page of
 *   the list) is only remembered by its key, so one-off pages fill neither memory nor the GC.
 *
 * Not kept: anything but a 200 HTML document for a signed-in GET; a page that sets a cookie; a page
 * that shows a flash toast (shown once).
 */
export function keepPersonalPages({
  personOf,
  versionOf,
  sessionCookie,
  languageOf,
}: KeptPageOptions): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    const personId = personOf(context);
    if (!personId || !isDocumentRequest(request)) return next();
    const cookies = preferenceCookies(request.headers.get("Cookie"), sessionCookie);
    if (cookies === null) return next();
    const version = await versionOf(personId, context);
    if (version === null) return next();

    const language = await languageOf(context, request);
    const key = `${personId}\n${version}\n${language}\n${request.url}\n${cookies}`;
    const etag = etagOf(key);
    if (matches(request.headers.get("If-None-Match"), etag)) {
      return new Response(null, { status: 304, headers: cachingHeaders(etag, UNCHANGED) });
    }
    store ??= createKeptPageStore({ maxBytes: KEPT_PAGE_BYTES });
    const kept = store.take(key);
    if (kept)
      return keptBytesResponse(kept.body, {
        status: kept.status,
        headers: [...kept.headers, ...cachingHeaders(etag, KEPT)],
      });

    const response = await next();
    const cacheable =
      response.status === 200 &&
      /^text\/html/i.test(response.headers.get("Content-Type") ?? "") &&
      !response.headers.has("Set-Cookie") &&
      !response.headers.has("Cache-Control");
    if (!cacheable) return response;
    if (!seenOnce.has(key)) {
      rememberSeen(key);
      return withHeaders(response, (headers) => {
        for (const [name, value] of cachingHeaders(etag, RENDERED)) headers.set(name, value);
      });
    }
    seenOnce.delete(key);
    // Bytes throughout: the page is neither decoded to keep it nor encoded again to send it.
    const body = new Uint8Array(await response.arrayBuffer());
    const headers = [...response.headers].filter(([name]) => name !== "content-length");
    store.keep(key, { status: response.status, headers, body });
    return keptBytesResponse(body, {
      status: response.status,
      headers: [...headers, ...cachingHeaders(etag, RENDERED)],
    });
  };
}

/** A weak validator for everything the page is built from (the key) and the code that builds it. */
function etagOf(key: string): string {
  return `W/"${createHash("sha1").update(BUILD_ID).update("\n").update(key).digest("base64url")}"`;
}

function rememberSeen(key: string): void {
  if (seenOnce.size >= SEEN_ONCE_MAX) seenOnce.delete(seenOnce.values().next().value as string);
  seenOnce.add(key);
}

function cachingHeaders(etag: string, timing: string): [string, string][] {
  return [
    ["ETag", etag],
    ["Cache-Control", KEPT_PAGE_CACHE_CONTROL],
    ["Server-Timing", timing],
  ];
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
  const pairs = header
    .split(";")
    .map((pair) => pair.trim())
    .filter(Boolean);
  if (pairs.some((pair) => pair.startsWith(`${TOAST_COOKIE}=`))) return null;
  return pairs.filter((pair) => !pair.startsWith(`${sessionCookie}=`)).join("; ");
}
