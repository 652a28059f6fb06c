import { randomBytes } from "node:crypto";

/**
 * Rendered pages kept in this process's memory under a key that names everything they were built
 * from (issue 13; docs/decisions/0017-personal-page-cache.md), least recently used dropped first once
 * `maxBytes` of markup is held. What the key must hold is the caller's business
 * (app/auth/personal-page-cache.server.ts); this module only keeps pages and hands out copies.
 *
 * A page carries the CSP nonce it was rendered with, in its Content-Security-Policy header and its
 * script tags. A nonce must never be seen twice, so every copy handed out gets a new one (128 random
 * bits, as app/entry.server.tsx makes them) in both places.
 */
export interface KeptPage {
  status: number;
  headers: [string, string][];
  body: string;
}

interface Entry extends KeptPage {
  nonce: string;
  bytes: number;
}

export interface PageKeeper {
  /** A copy of the page kept under `key`, with a fresh nonce, or null. */
  take(key: string): KeptPage | null;
  /** Keeps a page (its headers as sent, its whole body). Pages without a nonce, or too large, are not kept. */
  keep(key: string, page: KeptPage): void;
  readonly size: number;
  readonly bytes: number;
}

export function createPageKeeper({ maxBytes, maxPageBytes = 512 * 1024 }: { maxBytes: number; maxPageBytes?: number }): PageKeeper {
  const entries = new Map<string, Entry>();
  let heldBytes = 0;

  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    heldBytes -= entry.bytes;
  };

  return {
    take(key) {
      const entry = entries.get(key);
      if (!entry) return null;
      // Most recently used last: Map keeps insertion order.
      entries.delete(key);
      entries.set(key, entry);
      return restamp(entry);
    },
    keep(key, page) {
      const nonce = nonceOf(page.headers);
      // Strings are UTF-16 in memory; length * 2 is what the page costs here.
      const bytes = page.body.length * 2;
      if (!nonce || bytes > maxPageBytes || bytes > maxBytes) return;
      forget(key);
      entries.set(key, { ...page, headers: page.headers.map(([name, value]) => [name, value]), nonce, bytes });
      heldBytes += bytes;
      for (const oldest of entries.keys()) {
        if (heldBytes <= maxBytes) break;
        forget(oldest);
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return heldBytes;
    },
  };
}

function nonceOf(headers: [string, string][]): string | null {
  const policy = headers.find(([name]) => name.toLowerCase() === "content-security-policy")?.[1] ?? "";
  return /'nonce-([A-Za-z0-9+/=]{16,})'/.exec(policy)?.[1] ?? null;
}

function restamp(entry: Entry): KeptPage {
  const nonce = randomBytes(16).toString("base64");
  const swap = (text: string) => text.split(entry.nonce).join(nonce);
  return {
    status: entry.status,
    headers: entry.headers.map(([name, value]) => [name, name.toLowerCase() === "content-security-policy" ? swap(value) : value]),
    body: swap(entry.body),
  };
}
