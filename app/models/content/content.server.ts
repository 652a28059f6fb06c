import type { Kysely } from "kysely";
import { compileOnce } from "~/lib/db/compiled-query.server";
import type { ContentItemsTable } from "~/lib/db/work-tables";
import type { Database } from "~/lib/db/db-schema";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { msg } from "~/common/i18n/translate";
import { parseInput } from "~/lib/screens/validation.server";
import { monotonicIso, newId } from "~/lib/db/ids.server";
import { contentUpdateSchema, textBytesOf, type ContentUpdate } from "./content-input.server";
import {
  contentForWrite,
  historyFactsOf,
  keepVersions,
  versionsToKeep,
  type VersionReason,
} from "./content-version-keep.server";
import { quotaExceeded, requireWithinQuota, roomLeftLocked } from "~/models/media/storage-quota.server";

/**
 * Text content items (docs/api.md#entities-and-payloads): every function takes the signed-in user's id and every query is
 * scoped by it, so another user's item is indistinguishable from one that does not exist. What an item
 * may hold, and the forms' and the API's input, are app/models/content/content-input.server.ts's.
 */
/** Shown by the share panel too (t(detail)): a catalogue text. */
export const CONTENT_NOT_FOUND = msg("Content not found");
/** The code of the 409 above, whose data carries the stored version as `current`. */
export const CONTENT_CONFLICT_CODE = "content_conflict";
export const CONTENT_CONFLICT =
  "This content was changed since you loaded it; your save was refused so the newer version is kept";

export interface ContentItem {
  id: string;
  title: string;
  body: string;
  pinned: boolean;
  updated_at: string;
}

/** What the dashboard list needs (no body: it can be 100,000 characters). */
export type ContentSummary = Omit<ContentItem, "body">;

function toItem(row: Pick<ContentItemsTable, "id" | "title" | "body" | "pinned" | "updated_at">): ContentItem {
  return { id: row.id, title: row.title, body: row.body, pinned: Boolean(row.pinned), updated_at: row.updated_at };
}

interface ListOptions {
  limit?: number;
  offset?: number;
}

/*
 * The queries on every request's path (the list, one item, the autosave's read and write; the count
 * is app/models/content/content-state.server.ts's) are compiled once per database
 * (app/lib/db/compiled-query.server.ts) and run with each call's values. The SQL is exactly what the
 * query builder produced before.
 */

/** Which of limit / offset the list's SQL has: its shape, one compiled query each. */
type ListShape = "all" | "limit" | "offset" | "limit+offset";
type ListParameters = { userId: string; limit?: number; offset?: number };

function listShape({ limit, offset }: ListOptions): ListShape {
  // An offset of 0 is no offset (as before).
  if (offset) return limit === undefined ? "offset" : "limit+offset";
  return limit === undefined ? "all" : "limit";
}

/** Pinned first, then most recently updated first (docs/screens.md#states-and-transitions); the index content_items_user_list serves it. */
function listQuery(database: Kysely<Database>, p: ListParameters, shape: ListShape) {
  let query = database
    .selectFrom("content_items")
    .where("user_id", "=", p.userId)
    .orderBy("pinned", "desc")
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc");
  if (shape === "limit" || shape === "limit+offset") query = query.limit(p.limit!);
  // SQL wants a LIMIT before an OFFSET; a huge one is portable where LIMIT -1 / ALL are not.
  if (shape === "offset") query = query.limit(Number.MAX_SAFE_INTEGER);
  if (shape === "offset" || shape === "limit+offset") query = query.offset(p.offset!);
  return query;
}

const contentList = compileOnce((database: Kysely<Database>, p: ListParameters, shape: ListShape) =>
  listQuery(database, p, shape).select(["id", "title", "body", "pinned", "updated_at"]),
);

const contentSummaryList = compileOnce((database: Kysely<Database>, p: ListParameters, shape: ListShape) =>
  listQuery(database, p, shape).select(["id", "title", "pinned", "updated_at"]),
);

/** One of the person's items (getContent). */
const contentById = compileOnce((database: Kysely<Database>, p: { id: string; userId: string }) =>
  database
    .selectFrom("content_items")
    .select(["id", "title", "body", "pinned", "updated_at"])
    .where("id", "=", p.id)
    .where("user_id", "=", p.userId),
);

/** updateContent's write: only if the item is still at the version read (compare-and-set). */
const contentVersionUpdate = compileOnce(
  (
    database: Kysely<Database>,
    p: { title: string; body: string; updatedAt: string; id: string; userId: string; readUpdatedAt: string },
  ) =>
    database
      .updateTable("content_items")
      .set({ title: p.title, body: p.body, updated_at: p.updatedAt })
      .where("id", "=", p.id)
      .where("user_id", "=", p.userId)
      .where("updated_at", "=", p.readUpdatedAt),
);

export async function listContent(userId: string, options: ListOptions = {}): Promise<ContentItem[]> {
  const rows = await contentList.all(db, { userId, ...options }, listShape(options));
  return rows.map(toItem);
}

export async function listContentSummaries(userId: string, options: ListOptions = {}): Promise<ContentSummary[]> {
  const rows = await contentSummaryList.all(db, { userId, ...options }, listShape(options));
  return rows.map((row) => ({ id: row.id, title: row.title, pinned: Boolean(row.pinned), updated_at: row.updated_at }));
}

export async function getContent(userId: string, id: string): Promise<ContentItem | undefined> {
  const row = await contentById.first(db, { id, userId });
  return row ? toItem(row) : undefined;
}

/**
 * A new item. Its text counts toward the person's storage quota: the insert (whose trigger adds its
 * bytes to the person's row and takes that row) and the check are one transaction, so racing creates
 * cannot pass the quota together; past it, 413 (QUOTA_EXCEEDED) and nothing is saved.
 */
export async function createContent(userId: string, input: { title: string; body?: string }): Promise<ContentItem> {
  const now = monotonicIso();
  const row = {
    id: newId(),
    user_id: userId,
    title: input.title,
    body: input.body ?? "",
    pinned: 0,
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("content_items").values(row).execute();
    await requireWithinQuota(trx, userId);
  });
  return toItem(row);
}

export type UpdateResult =
  | { ok: true; item: ContentItem }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "conflict"; current: ContentItem };

/**
 * How a write is told apart for the piece's history (docs/decisions/0072): `versionReason` ("save"
 * unless given: the screen's Save and PUT; "autosave"; "restore") and `editingSince`, the version the
 * editor began with.
 */
export interface UpdateOptions {
  expectedUpdatedAt?: string;
  versionReason?: VersionReason;
  editingSince?: string;
}

/**
 * Saves a new title (and body, when given). With `expectedUpdatedAt` (the version the editor last saw)
 * a write based on an older version than the stored one is refused as a conflict: an older autosave
 * never overwrites a newer save. The write itself is conditional on the version read, so two
 * concurrent writers cannot both win; that compare-and-set is what makes it safe, so the read and the
 * write need no transaction around them (BEGIN and COMMIT were a third of an autosave's queries).
 * A save that makes the item's text larger counts toward the storage quota: then the write and the
 * check are one transaction (as createContent), and past the quota it is a 413 (QUOTA_EXCEEDED) with
 * nothing saved. A save that keeps or shrinks the text never needs the check.
 */
export async function updateContent(
  userId: string,
  id: string,
  input: ContentUpdate,
  options: UpdateOptions = {},
): Promise<UpdateResult> {
  const current = await contentForWrite.first(db, { id, userId });
  if (!current) return { ok: false, reason: "not_found" };
  if (
    options.expectedUpdatedAt !== undefined &&
    Date.parse(options.expectedUpdatedAt) < Date.parse(current.updated_at)
  ) {
    return { ok: false, reason: "conflict", current: toItem(current) };
  }
  const body = input.body ?? current.body;
  // Nothing changed: keep the version (and the item's place in the list).
  if (input.title === current.title && body === current.body) return { ok: true, item: toItem(current) };

  const changes = {
    title: input.title,
    body,
    updated_at: monotonicIso(current.updated_at) /* always past the version it replaces */,
  };
  const write = (database: Kysely<Database>) =>
    contentVersionUpdate.affectedRows(database, {
      title: changes.title,
      body: changes.body,
      updatedAt: changes.updated_at,
      id,
      userId,
      readUpdatedAt: current.updated_at,
    });
  const grows = textBytesOf(changes.title, changes.body) > textBytesOf(current.title, current.body);
  const facts = historyFactsOf(current);
  const keep = versionsToKeep(current, changes, facts, {
    reason: options.versionReason ?? "save",
    editingSince: options.editingSince,
  });
  const updated =
    grows || keep.length > 0
      ? await db.transaction().execute(async (trx) => {
          const rows = await write(trx);
          if (Number(rows) !== 1) return rows;
          // One read of the person's room serves the quota check and the versions (docs/decisions/0080).
          const room = await roomLeftLocked(trx, userId);
          if (grows && room.left < 0) throw quotaExceeded(room.quotaBytes);
          if (keep.length > 0) await keepVersions(trx, userId, id, keep, room.left, facts.versions);
          return rows;
        })
      : await write(db);
  if (Number(updated) !== 1) {
    // Another write landed between the read and this one (or the item was deleted): say which.
    const latest = await contentById.first(db, { id, userId });
    return latest ? { ok: false, reason: "conflict", current: toItem(latest) } : { ok: false, reason: "not_found" };
  }
  return { ok: true, item: toItem({ ...current, ...changes }) };
}

/** The refusal of an item the person does not have (or that is another user's). */
export const contentNotFound = () => new DomainError(404, CONTENT_NOT_FOUND);

/**
 * updateContent for a door that answers refusals as errors: the saved item, else 404, or a 409 that
 * carries the stored version as `current` (the editor shows it instead of fetching it again).
 */
export async function saveContent(
  userId: string,
  id: string,
  input: ContentUpdate,
  options: UpdateOptions = {},
): Promise<ContentItem> {
  const result = await updateContent(userId, id, input, options);
  if (result.ok) return result.item;
  if (result.reason === "conflict")
    throw new DomainError(409, CONTENT_CONFLICT, { data: { current: result.current }, code: CONTENT_CONFLICT_CODE });
  throw contentNotFound();
}

/**
 * An autosave as the API takes it (POST /api/content/{id}/autosave, by React Router or at the front
 * door): `{title, body?, updated_at?, editing_since?}` checked (422), then saveContent.
 */
export async function autosaveContent(userId: string, id: string, body: unknown): Promise<ContentItem> {
  const { updated_at, editing_since, ...input } = parseInput(contentUpdateSchema, body);
  return saveContent(userId, id, input, {
    expectedUpdatedAt: updated_at,
    versionReason: "autosave",
    editingSince: editing_since,
  });
}

/** The person's item, else 404. */
export async function requireContent(userId: string, id: string): Promise<ContentItem> {
  const item = await getContent(userId, id);
  if (!item) throw contentNotFound();
  return item;
}

/** Pinning is not an edit: it keeps updated_at (and so the item's place among the pinned or unpinned). */
export async function setPinned(userId: string, id: string, pinned: boolean): Promise<ContentItem | undefined> {
  const result = await db
    .updateTable("content_items")
    .set({ pinned: pinned ? 1 : 0 })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return getContent(userId, id);
}

export async function deleteContent(userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom("content_items")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
