import { createByteBoundedCache } from "~/lib/byte-bounded-cache.server";
import { contentState, listContent, listQuerySchema } from "./content.server";
import { searchContent, searchQuerySchema } from "./content-search.server";

/** GET /api/content's query: ?limit=, ?offset= and the search words ?q=. */
export const contentListQuerySchema = listQuerySchema.extend({ q: searchQuerySchema.optional() });

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

/** A list answer held in memory: data kept inside the loader, under the person's content version. */
interface KeptContentList {
  json: Uint8Array<ArrayBuffer>;
  total: number;
}

export interface ContentListQuery {
  limit?: number;
  offset?: number;
  /** Search words (content-search.server.ts); blank or absent for the plain list. */
  q?: string;
}

const utf8 = new TextEncoder();

/** Every person's kept answers in this process (a Map; nothing runs until the first list is asked for). */
const keptLists = createByteBoundedCache<KeptContentList>({
  maxBytes: KEPT_LIST_BYTES,
  maxEntryBytes: KEPT_LIST_MAX_BYTES,
  sizeOf: (answer) => answer.json.byteLength,
});

function keyOf(userId: string, version: number, query: ContentListQuery): string {
  return `${userId}\n${version}\n${query.limit ?? ""}\n${query.offset ?? ""}\n${query.q ?? ""}`;
}

/** The answer kept for this person, content version and query, or null: nothing is read or computed. */
function keptContentList(userId: string, version: number, query: ContentListQuery): KeptContentList | null {
  return keptLists.get(keyOf(userId, version, query)) ?? null;
}

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
  // The version and the count come from one read of the person's row, before the items.
  const state = await contentState(userId);
  const answer = state === null ? null : keptContentList(userId, state.version, query);
  if (answer) return { json: answer.json, total: answer.total, kept: true };

  const page = { limit: query.limit, offset: query.offset };
  const { items, total } = query.q
    ? await searchContent(userId, query.q, page)
    : { items: await listContent(userId, page), total: state?.count ?? 0 };
  const json = utf8.encode(JSON.stringify(items));
  if (state !== null) keptLists.set(keyOf(userId, state.version, query), { json, total });
  return { json, total, kept: false };
}
