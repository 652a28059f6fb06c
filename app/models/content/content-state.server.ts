import type { Kysely } from "kysely";
import { compileOnce } from "~/lib/db/compiled-query.server";
import type { Database } from "~/lib/db/db-schema";
import { db } from "~/lib/db/db.server";
import { env } from "~/lib/settings/env.server";

/*
 * What the person's items add up to, read from their own row (no query over content_items): what
 * pages built from their content are kept under, how many items they have and what they store.
 */

/**
 * The person's content version and item count, kept in their row by database triggers: the version
 * moves with every change to their items (migration 0010), the count with every insert and delete
 * (0011; counting the index cost 0.5 ms per 10,000 items).
 */
const contentStateOfUser = compileOnce((database: Kysely<Database>, p: { userId: string }) =>
  database
    .selectFrom("users")
    .select(["content_version", "content_count", "media_bytes", "text_bytes", "storage_quota_bytes"])
    .where("id", "=", p.userId),
);

export interface ContentState {
  version: number;
  count: number;
  /** Bytes of the person's files and of their items' text (migration 0012's counters), for the storage meter. */
  mediaBytes: number;
  textBytes: number;
  /** The person's storage quota: their own (`npm run admin -- quota`) or USER_STORAGE_QUOTA_MB. */
  quotaBytes: number;
}

/**
 * What a page or list built from the person's items is kept under, how many items they have and what
 * they store (files, text), all from their row in one read; null: no such person.
 */
export async function contentState(userId: string): Promise<ContentState | null> {
  const row = await contentStateOfUser.first(db, { userId });
  return row
    ? {
        version: Number(row.content_version),
        count: Number(row.content_count),
        mediaBytes: Number(row.media_bytes),
        textBytes: Number(row.text_bytes),
        quotaBytes: row.storage_quota_bytes == null ? env.storageQuotaBytes : Number(row.storage_quota_bytes),
      }
    : null;
}

/**
 * A number that changes whenever any of the person's items is created, changed, pinned or deleted, by
 * any path (database triggers): what a page built from their content is kept under. null: no such person.
 */
export async function contentVersion(userId: string): Promise<number | null> {
  return (await contentState(userId))?.version ?? null;
}

/** How many items the person has (0 for no such person). */
export async function countContent(userId: string): Promise<number> {
  return (await contentState(userId))?.count ?? 0;
}
