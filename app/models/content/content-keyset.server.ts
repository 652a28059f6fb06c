import { type Kysely } from "kysely";
import { z } from "zod";
import { compileOnce } from "~/lib/db/compiled-query.server";
import { decodeCursor, encodeCursor } from "~/lib/http/cursor.server";
import type { Database } from "~/lib/db/db-schema";
import { db } from "~/lib/db/db.server";
import type { ContentItem, ContentSummary } from "./content.server";

/**
 * The content list's keyset (docs/decisions/0076-paging-by-cursor.md): its order is pinned first, then
 * most recently updated, then id, all descending, so a row's (pinned, updated_at, id) says where it
 * stands, and "the rows after it" is one row-value comparison that the index content_items_user_list
 * (user_id, pinned, updated_at, id) answers as a range: a page far down the list costs what the first does.
 */
export interface ContentKey {
  pinned: number;
  updatedAt: string;
  id: string;
}

const CONTENT_LIST = "content";

const contentKeySchema = z
  .tuple([z.union([z.literal(0), z.literal(1)]), z.string().min(1).max(64), z.string().min(1).max(200)])
  .transform(([pinned, updatedAt, id]): ContentKey => ({ pinned, updatedAt, id }));

export function contentKeyOf(item: Pick<ContentItem, "pinned" | "updated_at" | "id">): ContentKey {
  return { pinned: item.pinned ? 1 : 0, updatedAt: item.updated_at, id: item.id };
}

/** The opaque cursor that starts a page right after `key`. */
export function contentCursor(key: ContentKey): string {
  return encodeCursor(CONTENT_LIST, [key.pinned, key.updatedAt, key.id]);
}

/** The key a cursor names; a cursor that is not one of the content list's is a 400 {detail}. */
export function contentCursorKey(cursor: string): ContentKey {
  return decodeCursor(CONTENT_LIST, cursor, contentKeySchema);
}

/** A screen's cursor (?cursor= of a Next link): its key, or null when there is none or it does not read (the page then goes by its number). */
export function screenCursorKey(cursor: string | null): ContentKey | null {
  if (!cursor) return null;
  try {
    return contentCursorKey(cursor);
  } catch {
    return null;
  }
}

type AfterParameters = { userId: string; limit: number; pinned: number; updatedAt: string; id: string };

/** The rows after a key, in the list's order (its plan is tested). */
export function afterQuery(database: Kysely<Database>, p: AfterParameters) {
  return database
    .selectFrom("content_items")
    .where("user_id", "=", p.userId)
    .where(({ eb, refTuple, tuple }) =>
      eb(refTuple("pinned", "updated_at", "id"), "<", tuple(p.pinned, p.updatedAt, p.id)),
    )
    .orderBy("pinned", "desc")
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(p.limit);
}

const itemsAfter = compileOnce((database: Kysely<Database>, p: AfterParameters) =>
  afterQuery(database, p).select(["id", "title", "body", "pinned", "updated_at"]),
);

const summariesAfter = compileOnce((database: Kysely<Database>, p: AfterParameters) =>
  afterQuery(database, p).select(["id", "title", "pinned", "updated_at"]),
);

/** Up to `limit` of the person's items that come after `after` in the list's order. */
export async function listContentAfter(userId: string, limit: number, after: ContentKey): Promise<ContentItem[]> {
  const rows = await itemsAfter.all(db, { userId, limit, ...after });
  return rows.map((row) => ({ ...row, pinned: Boolean(row.pinned) }));
}

/** As listContentAfter, without the bodies (the dashboard list). */
export async function listContentSummariesAfter(
  userId: string,
  limit: number,
  after: ContentKey,
): Promise<ContentSummary[]> {
  const rows = await summariesAfter.all(db, { userId, limit, ...after });
  return rows.map((row) => ({ ...row, pinned: Boolean(row.pinned) }));
}
