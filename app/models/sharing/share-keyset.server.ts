import { z } from "zod";
import { decodeCursor, encodeCursor } from "~/lib/http/cursor.server";
import { db } from "~/lib/db/db.server";
import { SHARE_COLUMNS, sharesOf, type ShareJson, type ShareRow } from "./share.server";

/**
 * The person's links a page at a time (GET /api/shares, the account's "Shared links"), by keyset as the
 * content list is (docs/decisions/0076-paging-by-cursor.md, 0090): newest first, then by id, both
 * descending, so a link's (created_at, id) says where it stands and the next page starts right after
 * the last one shown, whatever was made or revoked meanwhile. Revoked links are left out, as ever.
 */
export interface ShareKey {
  createdAt: string;
  id: string;
}

const SHARE_LIST = "shares";

const shareKeySchema = z
  .tuple([z.string().min(1).max(64), z.string().min(1).max(200)])
  .transform(([createdAt, id]): ShareKey => ({ createdAt, id }));

/** The opaque cursor that starts a page right after `key`. */
export function shareCursor(key: ShareKey): string {
  return encodeCursor(SHARE_LIST, [key.createdAt, key.id]);
}

/** The key a cursor names; a cursor that is not one of the share list's is a 400 {detail}. */
export function shareCursorKey(cursor: string): ShareKey {
  return decodeCursor(SHARE_LIST, cursor, shareKeySchema);
}

/** A screen's cursor (the account's ?shares_cursor= of its "Older links"): its key, or null (the first page) when it does not read. */
export function screenShareCursorKey(cursor: string | null): ShareKey | null {
  if (!cursor) return null;
  try {
    return shareCursorKey(cursor);
  } catch {
    return null;
  }
}

export interface SharePage {
  /** Up to `limit` links, newest first. */
  shares: ShareJson[];
  /** How many links (not revoked) the person has in all. */
  total: number;
  /** The cursor of the page after this one (its last link's keys), or null when none follows. */
  next: string | null;
}

/** Up to `limit` of the person's links after `after` (from the newest without it), with the total and the next page's cursor. */
export async function listSharesPage(
  userId: string,
  origin: string,
  { limit, after }: { limit: number; after?: ShareKey | null },
): Promise<SharePage> {
  let query = db
    .selectFrom("shares")
    .select(SHARE_COLUMNS)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null);
  if (after) {
    query = query.where(({ eb, refTuple, tuple }) =>
      eb(refTuple("created_at", "id"), "<", tuple(after.createdAt, after.id)),
    );
  }
  // One row past the page's end, so the page knows whether another follows.
  const rows = (await query
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute()) as ShareRow[];
  const { total } = await db
    .selectFrom("shares")
    .select((eb) => eb.fn.countAll<number>().as("total"))
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const next = rows.length > limit && last ? shareCursor({ createdAt: last.created_at, id: last.id }) : null;
  return { shares: await sharesOf(userId, page, origin), total: Number(total), next };
}
