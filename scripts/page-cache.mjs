// A one-second cache of anonymous pages, in the front door (scripts/server.mjs).
//
// The app marks a page of nobody in particular with X-Studio-Anonymous-Page (an anonymous GET
// answered 200 with HTML, no cookie set, no caching chosen: app/auth/session-middleware.server.ts);
// anything personal never carries it. Such a page is kept for one second under its URL and the
// request's exact Cookie header (the theme lives in a cookie; a session cookie makes a different
// key and is never marked anyway), so a burst of visitors to /, /login or /register costs one render
// a second instead of one each. Every answer from the cache gets a fresh CSP nonce: the page is
// stored with the nonce it was rendered with, and each copy replaces it (a 128-bit random string)
// in the header and the markup. The landing's clock is at most a second old until it ticks in the
// browser. The mark never leaves the server.
import { randomBytes } from "node:crypto";

export const ANONYMOUS_PAGE_HEADER = "x-studio-anonymous-page";
const TTL_MS = 1000;
const MAX_ENTRIES = 200;
const MAX_BODY = 512 * 1024;

export function createPageCache({ ttlMs = TTL_MS, maxEntries = MAX_ENTRIES, now = Date.now } = {}) {
  /** key -> { expires, status, headers: [name, value][], body, nonce } */
  const entries = new Map();
  return {
    /** The key of a request that may be answered from the cache, or null. */
    keyOf(req) {
      if (req.method !== "GET") return null;
      const cookie = req.headers.cookie ?? "";
      return `${req.url}\n${cookie}`;
    },
    /** A fresh copy of the page kept under `key` (a new nonce), or null. */
    get(key) {
      const entry = entries.get(key);
      if (!entry) return null;
      if (entry.expires <= now()) {
        entries.delete(key);
        return null;
      }
      return restamp(entry);
    },
    /**
     * Takes a marked answer (its body read whole): keeps it when it can, and returns what to send
     * (the answer itself, without the mark). Answers not marked come back untouched as null.
     */
    async admit(key, response) {
      if (!response.headers.has(ANONYMOUS_PAGE_HEADER)) return null;
      const headers = [...response.headers].filter(([name]) => name !== ANONYMOUS_PAGE_HEADER && name !== "content-length");
      const body = await response.text();
      const page = { status: response.status, statusText: response.statusText, headers, body };
      const nonce = nonceOf(headers);
      if (key && nonce && response.status === 200 && Buffer.byteLength(body) <= MAX_BODY) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value);
        entries.set(key, { ...page, nonce, expires: now() + ttlMs });
      }
      return page;
    },
    get size() {
      return entries.size;
    },
  };
}

function nonceOf(headers) {
  const policy = headers.find(([name]) => name === "content-security-policy")?.[1] ?? "";
  return /'nonce-([A-Za-z0-9+/=]{16,})'/.exec(policy)?.[1] ?? null;
}

function restamp(entry) {
  const nonce = randomBytes(16).toString("base64");
  const swap = (text) => text.split(entry.nonce).join(nonce);
  return {
    status: entry.status,
    statusText: entry.statusText,
    headers: entry.headers.map(([name, value]) => [name, name === "content-security-policy" ? swap(value) : value]),
    body: swap(entry.body),
  };
}
