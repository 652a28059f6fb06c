import { sql, type Kysely } from "kysely";
import type { Database } from "~/lib/db/db-schema";
import { engineOf } from "../../../db/portable";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { textBytesOf } from "./content-input.server";
import type { VersionReason } from "./content-version-keep.server";
import { requireContent, saveContent, type ContentItem } from "./content.server";

/**
 * A text piece's version history as people see it (docs/api.md#version-history, docs/decisions/0072):
 * the list (newest first, paged, no bodies), one version with its body, the version the editor began
 * from, and restoring one. Which states are kept is content-version-keep.server.ts's. Every query is
 * scoped by the owner's id: another person's piece or version is a 404 like one that does not exist.
 */
export const VERSION_NOT_FOUND = "Version not found";
const versionNotFound = () => new DomainError(404, VERSION_NOT_FOUND);

export interface VersionSummary {
  id: string;
  content_id: string;
  title: string;
  reason: VersionReason;
  created_at: string;
  /** UTF-8 bytes of title + body (what the version counts toward the storage quota). */
  bytes: number;
  /** bytes minus the next older version's; null for the oldest. */
  size_change: number | null;
}

export interface VersionJson extends VersionSummary {
  body: string;
}

/** A version's bytes in SQL, as migration 0021's triggers count them, so a list needs no bodies. */
function bytesSql(database: Kysely<Database>) {
  return engineOf(database) === "postgres"
    ? sql<number | string>`octet_length(title) + octet_length(body)`
    : sql<number | string>`coalesce(length(cast(title as blob)), 0) + coalesce(length(cast(body as blob)), 0)`;
}

/** The person's piece's versions, newest first, a page at a time; 404 when the piece is not theirs. */
export async function listVersions(
  userId: string,
  contentId: string,
  page: { limit: number; offset: number },
): Promise<{ items: VersionSummary[]; total: number }> {
  await requireContent(userId, contentId);
  const scoped = db.selectFrom("content_versions").where("content_id", "=", contentId).where("user_id", "=", userId);
  const [count, rows] = await Promise.all([
    scoped.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow(),
    // One more than the page: the last entry's size change is against the next older version.
    scoped
      .select(["id", "content_id", "title", "reason", "created_at", bytesSql(db).as("bytes")])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(page.limit + 1)
      .offset(page.offset)
      .execute(),
  ]);
  const items = rows.slice(0, page.limit).map((row, i) => {
    const bytes = Number(row.bytes);
    const older = rows[i + 1];
    return {
      id: row.id,
      content_id: row.content_id,
      title: row.title,
      reason: row.reason,
      created_at: row.created_at,
      bytes,
      size_change: older ? bytes - Number(older.bytes) : null,
    };
  });
  return { items, total: Number(count.n) };
}

interface VersionRow {
  id: string;
  content_id: string;
  title: string;
  body: string;
  reason: VersionReason;
  created_at: string;
}

/** A version with its body and its size change against the next older one. */
async function withSizeChange(row: VersionRow, userId: string): Promise<VersionJson> {
  const older = await db
    .selectFrom("content_versions")
    .select(bytesSql(db).as("bytes"))
    .where("content_id", "=", row.content_id)
    .where("user_id", "=", userId)
    .where((eb) =>
      eb.or([
        eb("created_at", "<", row.created_at),
        eb.and([eb("created_at", "=", row.created_at), eb("id", "<", row.id)]),
      ]),
    )
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const bytes = textBytesOf(row.title, row.body);
  return { ...row, bytes, size_change: older ? bytes - Number(older.bytes) : null };
}

const versionColumns = ["id", "content_id", "title", "body", "reason", "created_at"] as const;

/** One version of the person's piece, with its body; 404 when either is not theirs or they do not belong together. */
export async function getVersion(userId: string, contentId: string, versionId: string): Promise<VersionJson> {
  const row = await db
    .selectFrom("content_versions")
    .select(versionColumns)
    .where("id", "=", versionId)
    .where("content_id", "=", contentId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw versionNotFound();
  return withSizeChange(row, userId);
}

/**
 * The newest version kept at or before `editingSince` (the updated_at the editor began with), for the
 * editor's Cancel; undefined when there is none (or the piece is not the person's, or the time is not one).
 */
export async function versionAtEditStart(
  userId: string,
  contentId: string,
  editingSince: string,
): Promise<VersionJson | undefined> {
  const since = Date.parse(editingSince);
  if (Number.isNaN(since)) return undefined;
  const row = await db
    .selectFrom("content_versions")
    .select(versionColumns)
    .where("content_id", "=", contentId)
    .where("user_id", "=", userId)
    .where("created_at", "<=", new Date(since).toISOString())
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? withSizeChange(row, userId) : undefined;
}

/**
 * Makes a version's title and body the piece's new state (a write like a save: updated_at moves on,
 * so an editor still holding the older version meets the conflict rule) and keeps that state as a
 * "restore" version. Answers the saved item; 404 as getVersion; 413 past the storage quota.
 */
export async function restoreVersion(userId: string, contentId: string, versionId: string): Promise<ContentItem> {
  const version = await getVersion(userId, contentId, versionId);
  return saveContent(userId, contentId, { title: version.title, body: version.body }, { versionReason: "restore" });
}
