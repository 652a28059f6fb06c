import { sql } from "kysely";
import { z } from "zod";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { fileStore } from "~/lib/storage/storage.server";
import {
  DEFAULT_LIBRARY_SORT,
  LIBRARY_KINDS,
  LIBRARY_MAX_PER_PAGE,
  LIBRARY_PAGE_SIZE,
  LIBRARY_SORTS,
  type LibraryFileJson,
  type LibraryFilters,
  type LibrarySort,
} from "~/common/media/library-rules";
import { interpolate, msg } from "~/common/i18n/translate";
import { checkMediaName, type MediaKind } from "~/common/media/media-names";
import { KIND_MUST_BE, SORT_MUST_BE } from "~/common/media/media-texts";
import { mediaUrl } from "./ai-media.server";
import { getMediaById, MEDIA_COLUMNS, toFile, writeMediaName, type MediaFile } from "./media.server";
import { storageUse } from "./storage-quota.server";
import { afterLibraryKey, libraryCursor, orderLibrary, type LibraryKey } from "./library-keyset.server";

/**
 * The library (decision 0022): every file the person owns, whatever made it (voice and video uploads,
 * generated speech, images and clips, sketch results, saved photos, camera clips and voice memos),
 * through one table (media_files) and so one query. Every function takes the user's id and every query
 * is scoped by it: another person's file is one that does not exist (404).
 */
export const FILE_NOT_FOUND = msg("File not found");
const fileNotFound = () => new DomainError(404, FILE_NOT_FOUND);

export interface LibraryQuery {
  kind?: MediaKind | null;
  /** Matched against the name and the prompt (case-insensitive, anywhere in them). */
  q?: string | null;
  sort?: LibrarySort;
  /** 1-based. */
  page?: number;
  perPage?: number;
  /** Start right after this file (a cursor's keys, library-keyset.server.ts) instead of at the page's offset. */
  after?: LibraryKey;
}

export interface LibraryPage {
  files: MediaFile[];
  total: number;
  page: number;
  perPage: number;
  /** The cursor of the page after this one, or null when no file follows. */
  next: string | null;
}

/** The filters' refusals the library screen shows as well (`t(problem)`). */
const PAGE_WHOLE = msg("page must be a whole number from 1");

const blankAsUnset = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/** GET /api/library's query (and the screen's form): a bad kind, sort or page is a 422 naming it. */
export const libraryQuerySchema = z.object({
  kind: z.preprocess(
    blankAsUnset,
    z
      .enum(LIBRARY_KINDS as [MediaKind, ...MediaKind[]], {
        error: interpolate(KIND_MUST_BE, { kinds: LIBRARY_KINDS.join(", ") }),
      })
      .optional(),
  ),
  q: z.string().max(200, msg("q must be at most 200 characters")).optional(),
  sort: z.preprocess(
    blankAsUnset,
    z
      .enum(LIBRARY_SORTS, { error: interpolate(SORT_MUST_BE, { sorts: LIBRARY_SORTS.join(", ") }) })
      .default(DEFAULT_LIBRARY_SORT),
  ),
  page: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: PAGE_WHOLE })
      .int(PAGE_WHOLE)
      .min(1, PAGE_WHOLE)
      .max(1_000_000, msg("page is too large"))
      .default(1),
  ),
  per_page: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: `per_page must be a whole number from 1 to ${LIBRARY_MAX_PER_PAGE}` })
      .int(`per_page must be a whole number from 1 to ${LIBRARY_MAX_PER_PAGE}`)
      .min(1, `per_page must be a whole number from 1 to ${LIBRARY_MAX_PER_PAGE}`)
      .max(LIBRARY_MAX_PER_PAGE, `per_page must be a whole number from 1 to ${LIBRARY_MAX_PER_PAGE}`)
      .default(LIBRARY_PAGE_SIZE),
  ),
});

/** The filters a library screen's URL (or a posted form's `back`) names; what does not parse falls back to the default, with the reason. */
export function libraryFilters(search: URLSearchParams): { filters: LibraryFilters; problem: string | null } {
  const parsed = libraryQuerySchema.safeParse({
    kind: search.get("kind") ?? undefined,
    q: search.get("q") ?? undefined,
    sort: search.get("sort") ?? undefined,
    page: search.get("page") ?? undefined,
  });
  if (!parsed.success) {
    return {
      filters: { kind: "", q: "", sort: DEFAULT_LIBRARY_SORT, page: 1 },
      problem: parsed.error.issues[0]?.message ?? msg("Invalid filter"),
    };
  }
  const { kind, q, sort, page } = parsed.data;
  return { filters: { kind: kind ?? "", q: q?.trim() ?? "", sort, page }, problem: null };
}

/** PATCH /api/library/{id}'s body. */
export const renameSchema = z.object({ name: z.string({ error: "name is required" }) });

/** `%text%` for LIKE, with LIKE's own characters escaped (the queries say `escape '\'`). */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filtered(userId: string, query: LibraryQuery) {
  let select = db.selectFrom("media_files").where("user_id", "=", userId);
  if (query.kind) select = select.where("kind", "=", query.kind);
  const q = query.q?.trim();
  if (q) {
    const pattern = containsPattern(q);
    // lower() on both engines: SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
    select = select.where((eb) =>
      eb.or([
        sql<boolean>`lower(${eb.ref("name")}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(coalesce(${eb.ref("prompt")}, '')) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return select;
}

/** One page of the person's files, filtered and sorted, with how many match in all. */
export async function listLibrary(userId: string, query: LibraryQuery = {}): Promise<LibraryPage> {
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const perPage = Math.max(1, Math.floor(query.perPage ?? LIBRARY_PAGE_SIZE));
  const sort = query.sort ?? DEFAULT_LIBRARY_SORT;
  let select = orderLibrary(filtered(userId, query).select(MEDIA_COLUMNS), sort);
  select = query.after ? afterLibraryKey(select, sort, query.after) : select.offset((page - 1) * perPage);
  const [rows, count] = await Promise.all([
    // One file past the page, so the page knows whether another follows.
    select.limit(perPage + 1).execute(),
    filtered(userId, query)
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .executeTakeFirst(),
  ]);
  const files = rows.slice(0, perPage).map(toFile);
  const next = rows.length > perPage ? libraryCursor(sort, files.at(-1)!) : null;
  return { files, total: Number(count?.total ?? 0), page, perPage, next };
}

/** The person's file by id; 404 when there is none (or it is another person's). */
export async function getLibraryFile(userId: string, id: string): Promise<MediaFile> {
  const file = await getMediaById(userId, id);
  if (!file) throw fileNotFound();
  return file;
}

/**
 * Renames a file by id: trimmed, the kind's extension kept (appended when left out), blank or bad
 * names 422, a name the person already has for that kind 409.
 */
export async function renameLibraryFile(userId: string, id: string, newName: unknown): Promise<MediaFile> {
  const current = await getLibraryFile(userId, id);
  const checked = checkMediaName(newName, current.kind);
  if (!checked.ok) throw new DomainError(422, checked.message);
  return writeMediaName(userId, current, checked.name, fileNotFound);
}

/**
 * Deletes a file by id: the row first (projects referencing it are detached in the same statement,
 * ON DELETE SET NULL), then the bytes; a crash in between leaves an orphan for the sweep. 404 when none.
 */
export async function deleteLibraryFile(userId: string, id: string): Promise<MediaFile> {
  const current = await getLibraryFile(userId, id);
  const result = await db
    .deleteFrom("media_files")
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) throw fileNotFound();
  await fileStore.remove(id);
  return current;
}

export interface StorageUsage {
  /** Files and text together: what the quota counts (uploads in flight aside). */
  usedBytes: number;
  quotaBytes: number;
  byKind: Record<MediaKind, number>;
  /** The UTF-8 bytes of the person's content items' titles and bodies (included in usedBytes). */
  textBytes: number;
}

/** Bytes stored in all, by kind (every kind present, 0 when none) and as text, against USER_STORAGE_QUOTA_MB. */
export async function storageUsage(userId: string): Promise<StorageUsage> {
  const [rows, use] = await Promise.all([
    db
      .selectFrom("media_files")
      .select((eb) => ["kind", eb.fn.sum<number | string>("size").as("bytes")])
      .where("user_id", "=", userId)
      .groupBy("kind")
      .execute(),
    storageUse(userId),
  ]);
  const byKind = Object.fromEntries(LIBRARY_KINDS.map((kind) => [kind, 0])) as Record<MediaKind, number>;
  let mediaBytes = 0;
  for (const row of rows) {
    const bytes = Number(row.bytes ?? 0);
    mediaBytes += bytes;
    if (row.kind in byKind) byKind[row.kind as MediaKind] = bytes;
  }
  return { usedBytes: mediaBytes + use.textBytes, quotaBytes: use.quotaBytes, byKind, textBytes: use.textBytes };
}

/** A file as the API answers it (GET /api/library and /api/library/{id}). */
export function libraryJson(file: MediaFile): LibraryFileJson {
  return {
    id: file.id,
    name: file.name,
    kind: file.kind,
    size: file.size,
    content_type: file.contentType,
    created_at: file.createdAt,
    updated_at: file.updatedAt,
    url: mediaUrl(file.id),
    thumbnail_url: file.contentType === "image/png" ? `${mediaUrl(file.id)}/thumbnail` : null,
    width: file.width,
    height: file.height,
    duration_ms: file.durationMs,
    provenance: file.provenance,
  };
}
