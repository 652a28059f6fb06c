import type { MiddlewareFunction } from "react-router";
import { isDocumentRequest, keptBytesResponse } from "~/lib/http.server";
import { createPageKeeper, type PageKeeper } from "~/lib/page-keeper.server";
import { TOAST_COOKIE } from "~/lib/toast.server";
import { currentUser } from "./auth.server";
import { SESSION_COOKIE } from "./session.server";

/** Markup held at most, over every person's kept pages in this process. */
const KEPT_PAGE_BYTES = 32 * 1024 * 1024;

let keeper: PageKeeper | null = null;

/** Says which answers came from memory (browser dev tools show Server-Timing; the tests read it). */
const KEPT = 'page;desc="kept"';
const RENDERED = 'page;desc="rendered"';

/**
 * A personal page, rendered once and answered from memory until what it shows changes (issue 13;
 * docs/decisions/0017-personal-page-cache.md). The page is kept under everything it is built from:
 * the person, `versionOf(person)` (a number that moves whenever the data the page shows changes, on
 * any instance: it lives in the database), the URL, and the cookies other than the session (the
 * preferences: theme, plan, tool order). So a page may show only the person's identity, cookie
 * preferences and what `versionOf` counts; anything else it shows must be counted there too.
 *
 * Not kept: anything but a 200 HTML document for a signed-in GET; a page that sets a cookie; a page
 * that shows a flash toast (shown once). Every answer from memory gets a fresh CSP nonce.
 */
export function keepPersonalPages(versionOf: (userId: string) => Promise<number | null>): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    const user = currentUser(context);
    if (!user || !isDocumentRequest(request)) return next();
    const cookies = preferenceCookies(request.headers.get("Cookie"));
    if (cookies === null) return next();
    const version = await versionOf(user.id);
    if (version === null) return next();

    keeper ??= createPageKeeper({ maxBytes: KEPT_PAGE_BYTES });
    const key = `${user.id}\n${version}\n${request.url}\n${cookies}`;
    const kept = keeper.take(key);
    if (kept) return keptBytesResponse(kept.body, { status: kept.status, headers: [...kept.headers, ["Server-Timing", KEPT]] });

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
    keeper.keep(key, { status: response.status, headers, body });
    return keptBytesResponse(body, { status: response.status, headers: [...headers, ["Server-Timing", RENDERED]] });
  };
}

/**
 * The request's cookies other than the session (which rotates and says only who, already in the
 * key), as sent; null when a flash toast is waiting (that page is shown once, never kept).
 */
function preferenceCookies(header: string | null): string | null {
  if (!header) return "";
  const pairs = header.split(";").map((pair) => pair.trim()).filter(Boolean);
  if (pairs.some((pair) => pair.startsWith(`${TOAST_COOKIE}=`))) return null;
  return pairs.filter((pair) => !pair.startsWith(`${SESSION_COOKIE}=`)).join("; ");
}
