import { createByteBoundedCache } from "~/lib/byte-bounded-cache.server";
import { contentVersion, countContent, listContent } from "./content.server";
import { searchContent } from "./content-search.server";

/** The list answers held at most, over every person, in this process. */
const KEPT_LIST_BYTES = 32 * 1024 * 1024;
/** A page of 1,000 long items is not worth holding: it would push out everyone else's. */
const KEPT_LIST_MAX_BYTES = 2 * 1024 * 1024;

export interface ContentListAnswer {
  /** The JSON array of items, as GET /api/content sends it. */
  json: Uint8Array<ArrayBuffer>;
  /** How many items the list (or the search) has in all. */
  total: number;
  /** Whether it came from memory (said in Server-Timing, as the dashboard's kept pages are). */
  kept: boolean;
}

export interface ContentListQuery {
  limit?: number;
  offset?: number;
  /** Search words (content-search.server.ts); blank or absent for the plain list. */
  q?: string;
}

const utf8 = new TextEncoder();

/** Every person's kept answers in this process (a Map; nothing runs until the first list is asked for). */
const keptLists = createByteBoundedCache<Omit<ContentListAnswer, "kept">>({
  maxBytes: KEPT_LIST_BYTES,
  maxEntryBytes: KEPT_LIST_MAX_BYTES,
  sizeOf: (answer) => answer.json.byteLength,
});

/**
 * A page of the person's items (or of the matches of `q`), serialised once and answered from memory
 * until one of their items changes (issue 13: GET /api/content is read far more often than written).
 *
 * The answer is kept under the person's content version, which database triggers move on every
 * insert, update and delete of their items, on any instance (migration 0010; decision 0017). The
 * version is read before the items: a write landing in between can only put newer items under the
 * older version, which no request asks for once the write has committed, never older items under
 * the newer one.
 */
export async function contentListAnswer(userId: string, query: ContentListQuery): Promise<ContentListAnswer> {
  const version = await contentVersion(userId);
  const key = `${userId}\n${version}\n${query.limit ?? ""}\n${query.offset ?? ""}\n${query.q ?? ""}`;
  const answer = version === null ? undefined : keptLists.get(key);
  if (answer) return { ...answer, kept: true };

  const page = { limit: query.limit, offset: query.offset };
  const { items, total } = query.q
    ? await searchContent(userId, query.q, page)
    : await Promise.all([listContent(userId, page), countContent(userId)]).then(([items, total]) => ({ items, total }));
  const fresh = { json: utf8.encode(JSON.stringify(items)), total };
  if (version !== null) keptLists.set(key, fresh);
  return { ...fresh, kept: false };
}
