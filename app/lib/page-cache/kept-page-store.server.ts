import { randomBytes } from "node:crypto";
import { createByteBoundedCache } from "./byte-bounded-cache.server";

/**
 * Rendered pages kept in this process's memory under a key that names everything they were built
 * from (docs/decisions/0017-personal-page-cache.md), least recently used dropped first once
 * `maxBytes` of markup is held. What the key must hold is the caller's business
 * (app/lib/page-cache/kept-pages.server.ts); this module only keeps pages and hands out copies.
 *
 * A page carries the CSP nonce it was rendered with, in its Content-Security-Policy header and its
 * script tags. A nonce must never be seen twice, so every copy handed out gets a new one (128 random
 * bits, as app/entry.server.tsx makes them) in both places.
 */
export interface KeptPage {
  status: number;
  headers: [string, string][];
  /** The page's UTF-8 bytes, as rendered. */
  body: Uint8Array;
}

/** A copy handed out: the body as UTF-8 bytes, ready to send (encoding 50 KB per answer cost 10%). */
export interface KeptPageCopy {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
}

interface Entry {
  status: number;
  headers: [string, string][];
  nonce: string;
  /** The body's UTF-8 bytes between the occurrences of the nonce: a copy is these, joined by a new one. */
  pieces: Uint8Array[];
  bytes: number;
}

export interface KeptPageStore {
  /** A copy of the page kept under `key`, with a fresh nonce, or null. */
  take(key: string): KeptPageCopy | null;
  /** Keeps a page (its headers as sent, its whole body). Pages without a nonce, or too large, are not kept. */
  keep(key: string, page: KeptPage): void;
  readonly size: number;
  readonly bytes: number;
}

export function createKeptPageStore({
  maxBytes,
  maxPageBytes = 512 * 1024,
}: {
  maxBytes: number;
  maxPageBytes?: number;
}): KeptPageStore {
  const pages = createByteBoundedCache<Entry>({
    maxBytes,
    maxEntryBytes: maxPageBytes,
    sizeOf: (entry) => entry.bytes,
  });
  return {
    take(key) {
      const entry = pages.get(key);
      return entry ? restamp(entry) : null;
    },
    keep(key, page) {
      const nonce = nonceOf(page.headers);
      if (!nonce) return pages.delete(key);
      // The nonce is base64 (ASCII): its bytes occur in the UTF-8 body exactly where the text does.
      const pieces = splitBytes(page.body, Buffer.from(nonce));
      const bytes = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
      pages.set(key, {
        status: page.status,
        headers: page.headers.map(([name, value]) => [name, value]),
        nonce,
        pieces,
        bytes,
      });
    },
    get size() {
      return pages.size;
    },
    get bytes() {
      return pages.bytes;
    },
  };
}

function nonceOf(headers: [string, string][]): string | null {
  const policy = headers.find(([name]) => name.toLowerCase() === "content-security-policy")?.[1] ?? "";
  return /'nonce-([A-Za-z0-9+/=]{16,})'/.exec(policy)?.[1] ?? null;
}

function restamp(entry: Entry): KeptPageCopy {
  const nonce = randomBytes(16).toString("base64");
  const nonceBytes = Buffer.from(nonce);
  const body = new Uint8Array(entry.bytes + nonceBytes.byteLength * (entry.pieces.length - 1));
  let at = 0;
  entry.pieces.forEach((piece, index) => {
    if (index > 0) {
      body.set(nonceBytes, at);
      at += nonceBytes.byteLength;
    }
    body.set(piece, at);
    at += piece.byteLength;
  });
  return {
    status: entry.status,
    headers: entry.headers.map(([name, value]) => [
      name,
      name.toLowerCase() === "content-security-policy" ? value.split(entry.nonce).join(nonce) : value,
    ]),
    body,
  };
}

/** Copies of the parts of `bytes` between the occurrences of `separator` (as String.split does for text). */
function splitBytes(bytes: Uint8Array, separator: Buffer): Uint8Array[] {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (let at = body.indexOf(separator); at !== -1; at = body.indexOf(separator, start)) {
    pieces.push(Uint8Array.prototype.slice.call(body, start, at));
    start = at + separator.byteLength;
  }
  pieces.push(Uint8Array.prototype.slice.call(body, start));
  return pieces;
}
