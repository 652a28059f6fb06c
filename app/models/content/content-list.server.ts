import { z } from "zod";
import { createByteBoundedCache } from "~/lib/page-cache/byte-bounded-cache.server";
import type { Page } from "~/lib/http/paging.server";
import { listContent, type ContentItem } from "./content.server";
import { contentCursor, contentKeyOf, listContentAfter, type ContentKey } from "./content-keyset.server";
import { contentState } from "./content-state.server";
import { searchContent, searchQuerySchema } from "./content-search.server";

/** GET /api/content's search words ?q= (its ?limit= and ?offset= are the API's paging, app/lib/http/paging.server.ts). */
export const contentListQuerySchema = z.object({ q: searchQuerySchema.optional() });

const MiB = 1024 * 1024;
/**
 * No answer of the list is larger: a page ends before the item that would pass this many bytes of
 * JSON (its Link names the rest). 500 items of 100,000 characters would be 50-300 MB; one item is at
 * most about 600 KB (every character escaped), so a page always holds at least one.
 */
export const CONTENT_ANSWER_MAX_BYTES = 4 * MiB;
/** Items are read this many at a time, so a page of long items stops reading once it is full. */
const READ_BATCH = 100;

/** The list answers held at most, over every person, in this process. */
const KEPT_LIST_BYTES = 32 * 1024 * 1024;
/** A page of 1,000 long items is not worth holding: it would push out everyone else's. */
const KEPT_LIST_MAX_BYTES = 2 * 1024 * 1024;

export interface ContentListAnswer {
  /** The JSON array of items, as GET /api/content sends it. */
  json: Uint8Array<ArrayBuffer>;
  /** How many items the list has in all; for a search, only when the page tells it, else -1 (nothing counted). */
  total: number;
  /** How many items this page holds (the next page starts after them). */
  count: number;
  /** The cursor of the page after this one (its last item's keys), or null when no item follows. */
  next: string | null;
  /** Whether it came from memory (said in Server-Timing, as the dashboard's kept pages are). */
  kept: boolean;
}

/** A list answer held in memory: data kept inside the loader, under the person's content version. */
interface KeptContentList {
  json: Uint8Array<ArrayBuffer>;
  total: number;
  count: number;
  next: string | null;
}

export interface ContentListQuery extends Page {
  /** Search words (content-search.server.ts); blank or absent for the plain list. */
  q?: string;
  /** Start right after this row (a cursor's keys, content-keyset.server.ts) instead of at `offset`. */
  after?: ContentKey;
}

const utf8 = new TextEncoder();

/** Every person's kept answers in this process (a Map; nothing runs until the first list is asked for). */
const keptLists = createByteBoundedCache<KeptContentList>({
  maxBytes: KEPT_LIST_BYTES,
  maxEntryBytes: KEPT_LIST_MAX_BYTES,
  sizeOf: (answer) => answer.json.byteLength,
});

function keyOf(userId: string, version: number, query: ContentListQuery): string {
  const after = query.after ? contentCursor(query.after) : "";
  return `${userId}\n${version}\n${query.limit}\n${query.offset}\n${after}\n${query.q ?? ""}`;
}

/** The answer kept for this person, content version and query, or null: nothing is read or computed. */
function keptContentList(userId: string, version: number, query: ContentListQuery): KeptContentList | null {
  return keptLists.get(keyOf(userId, version, query)) ?? null;
}

/**
 * A page of the person's items (or of the matches of `q`), serialised once and answered from memory
 * until one of their items changes (docs/performance.md: GET /api/content is read far more often than written).
 *
 * The answer is kept under the person's content version, which database triggers move on every
 * insert, update and delete of their items, on any instance (migration 0010; decision 0017). The
 * version is read before the items: a write landing in between can only put newer items under the
 * older version, which no request asks for once the write has committed, never older items under
 * the newer one.
 */
export async function contentListAnswer(userId: string, query: ContentListQuery): Promise<ContentListAnswer> {
  // The version and the count come from one read of the person's row, before the items.
  const state = await contentState(userId);
  const answer = state === null ? null : keptContentList(userId, state.version, query);
  if (answer) return { ...answer, kept: true };

  const parts: string[] = [];
  let bytes = 2;
  let total = state?.count ?? 0;
  let last: ContentKey | null = null;
  let more = false;
  for (let first = true; parts.length < query.limit; first = false) {
    // One row past the page's end, so the page knows whether another follows.
    const want = Math.min(READ_BATCH, query.limit - parts.length) + 1;
    const items = await readBatch(userId, query, want, first ? null : last);
    if (first && query.q) total = items.total;
    let used = 0;
    for (const item of items.rows.slice(0, want - 1)) {
      const text = JSON.stringify(item);
      const size = Buffer.byteLength(text) + (parts.length > 0 ? 1 : 0);
      if (parts.length > 0 && bytes + size > CONTENT_ANSWER_MAX_BYTES) break;
      parts.push(text);
      bytes += size;
      last = contentKeyOf(item);
      used++;
    }
    more = items.rows.length > used;
    if (!more || used < want - 1) break;
  }
  // A search read to its end from an offset tells its total, whichever batch ended it.
  if (query.q && total < 0 && !more && !query.after) total = query.offset + parts.length;
  const json = utf8.encode(`[${parts.join(",")}]`);
  const next = more && last ? contentCursor(last) : null;
  const kept = { json, total, count: parts.length, next };
  if (state !== null) keptLists.set(keyOf(userId, state.version, query), kept);
  return { ...kept, kept: false };
}

/**
 * A batch of the list (or of the search): the first from the query's cursor or offset, the next ones
 * from the last row read (a keyset, whatever the first was). A search's total is never counted here
 * (no screen shows it, decision 0077): the first batch gives it when the page tells it, else it is -1.
 */
async function readBatch(
  userId: string,
  query: ContentListQuery,
  limit: number,
  last: ContentKey | null,
): Promise<{ rows: ContentItem[]; total: number }> {
  const after = last ?? query.after;
  const start = after ? { after } : { offset: query.offset };
  if (query.q) {
    const found = await searchContent(userId, query.q, { limit, ...start, count: false });
    return { rows: found.items, total: found.total };
  }
  const rows = after ? await listContentAfter(userId, limit, after) : await listContent(userId, { limit, ...start });
  return { rows, total: -1 };
}
