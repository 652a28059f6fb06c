import type { MediaFilesTable } from "~/lib/db/work-tables";
import { isUniqueViolation } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import type { ServedFile } from "~/lib/http/file-response.server";
import { monotonicIso } from "~/lib/db/ids.server";
import { fileStore } from "~/lib/storage/storage.server";
import type { Provenance } from "~/common/media/library-rules";
import { msg } from "~/common/i18n/translate";
import { checkMediaName, lookupName, nameFromUpload, type MediaKind } from "~/common/media/media-names";

/**
 * The user's stored files (docs/screens.md#voices and #video-hub and docs/api.md#entities-and-payloads). Every
 * function takes the user's id and every query is scoped by it: another user's file is
 * indistinguishable from one that does not exist. The bytes live in the file store under the row's
 * id; the display name is only a column, so a rename is a row update.
 *
 * Order of writes, so that neither a row nor a file can be left alone: a new file is complete on disk
 * before its row is inserted (a crash in between leaves a file without a row), and a deleted file's
 * row goes first (a crash leaves the same). The store's sweep removes such files: at start, once
 * after the grace period, and hourly (scheduled by app/services/operators/housekeeping.server.ts, never on import).
 * New files are committed by app/models/media/media-commit.server.ts, under the rules of app/models/media/media-rules.server.ts;
 * reading an upload from a request is app/services/media/media-upload.server.ts's: the models take
 * plain inputs (the user's id, names, streams, a file the store has staged and its first bytes).
 *
 * Refusals are DomainErrors (404, 409, 413, 415, 422) with the text the API answers.
 */

export interface MediaFile {
  id: string;
  kind: MediaKind;
  name: string;
  contentType: string;
  size: number;
  createdAt: string;
  updatedAt: string;
  /** How a generated file was made; null for uploads and for files generated before provenance was kept. */
  provenance: Provenance | null;
  width: number | null;
  height: number | null;
  durationMs: number | null;
}

/** Refusals a screen shows too (`t(detail)`): catalogue keys, the API's detail in English. */
export const VOICE_NOT_FOUND = msg("Voice file not found");
export const VIDEO_NOT_FOUND = msg("Video not found");
export const mediaNotFound = (kind: MediaKind) => (kind === "voice" ? VOICE_NOT_FOUND : VIDEO_NOT_FOUND);
export const NAME_TAKEN = msg("A file with that name already exists");

/** 409 when the person has a file of this kind by the name an upload's file name gives. */
export async function refuseTakenName(userId: string, kind: MediaKind, filename: string): Promise<void> {
  if (await getMediaByName(userId, kind, nameFromUpload(filename, kind))) throw new DomainError(409, NAME_TAKEN);
}

type Row = Pick<
  MediaFilesTable,
  | "id"
  | "kind"
  | "name"
  | "content_type"
  | "size"
  | "created_at"
  | "updated_at"
  | "prompt"
  | "provenance"
  | "width"
  | "height"
  | "duration_ms"
>;
export const MEDIA_COLUMNS = [
  "id",
  "kind",
  "name",
  "content_type",
  "size",
  "created_at",
  "updated_at",
  "prompt",
  "provenance",
  "width",
  "height",
  "duration_ms",
] as const;
const COLUMNS = MEDIA_COLUMNS;

function parseProvenance(prompt: string | null | undefined, json: string | null | undefined): Provenance | null {
  if (json === null || json === undefined) return null;
  let rest: Partial<Provenance> = {};
  try {
    rest = JSON.parse(json) as Partial<Provenance>;
  } catch {
    // A damaged record reads as what it still says: the prompt.
  }
  return {
    prompt: prompt ?? null,
    style: rest.style ?? null,
    voice: rest.voice ?? null,
    provider: rest.provider ?? null,
    model: rest.model ?? null,
    source: rest.source ?? null,
  };
}

const numberOrNull = (value: number | string | null | undefined) =>
  value === null || value === undefined ? null : Number(value);

export function toFile(row: Row): MediaFile {
  return {
    id: row.id,
    kind: row.kind as MediaKind,
    name: row.name,
    contentType: row.content_type,
    size: Number(row.size),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    provenance: parseProvenance(row.prompt, row.provenance),
    width: numberOrNull(row.width),
    height: numberOrNull(row.height),
    durationMs: numberOrNull(row.duration_ms),
  };
}

/** Newest first. */
export async function listMedia(userId: string, kind: MediaKind): Promise<MediaFile[]> {
  const rows = await db
    .selectFrom("media_files")
    .select(COLUMNS)
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toFile);
}

export async function getMediaByName(userId: string, kind: MediaKind, name: string): Promise<MediaFile | undefined> {
  const row = await db
    .selectFrom("media_files")
    .select(COLUMNS)
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .where("name", "=", lookupName(name))
    .executeTakeFirst();
  return row ? toFile(row) : undefined;
}

export async function getMediaById(userId: string, id: string): Promise<MediaFile | undefined> {
  const row = await db
    .selectFrom("media_files")
    .select(COLUMNS)
    .where("user_id", "=", userId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toFile(row) : undefined;
}

/** docs/screens.md#validation-rules: the new name is trimmed and gets the kind's extension when missing. 404 / 409 / 422 as DomainError. */
export async function renameMedia(
  userId: string,
  kind: MediaKind,
  oldName: string,
  newName: unknown,
): Promise<MediaFile> {
  const checked = checkMediaName(newName, kind);
  if (!checked.ok) throw new DomainError(422, checked.message);
  const current = await getMediaByName(userId, kind, oldName);
  if (!current) throw new DomainError(404, mediaNotFound(kind));
  return writeMediaName(userId, current, checked.name, () => new DomainError(404, mediaNotFound(kind)));
}

/**
 * Gives the person's file a name already checked (renameMedia, the library's renameLibraryFile): 409
 * when they have a file of that kind by that name, `notFound()` when the row went in the meantime.
 */
export async function writeMediaName(
  userId: string,
  current: MediaFile,
  name: string,
  notFound: () => DomainError,
): Promise<MediaFile> {
  if (name === current.name) return current;
  const updatedAt = monotonicIso();
  try {
    const result = await db
      .updateTable("media_files")
      .set({ name, updated_at: updatedAt })
      .where("user_id", "=", userId)
      .where("id", "=", current.id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw notFound();
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError(409, NAME_TAKEN);
    throw error;
  }
  return { ...current, name, updatedAt };
}

/**
 * Deletes the row, then the file (on S3 the object): a crash, or a store that fails to delete, in between
 * leaves an orphan for the sweep, never a row without bytes.
 */
export async function deleteMedia(userId: string, kind: MediaKind, name: string): Promise<boolean> {
  const current = await getMediaByName(userId, kind, name);
  if (!current) return false;
  const result = await db
    .deleteFrom("media_files")
    .where("user_id", "=", userId)
    .where("id", "=", current.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) return false;
  await fileStore.remove(current.id);
  return true;
}

/**
 * Removes stored files that have no row and stale temporary files (older than `graceMs`). A file is
 * claimed by its media_files row, or by its transient_speech row while that lives (unkept speech,
 * app/models/media/transient-speech.server.ts, whose own pruning removes it once expired).
 */
export function sweepOrphanMedia(options?: { graceMs?: number; now?: number }) {
  return fileStore.sweep(async (keys) => {
    if (keys.length === 0) return new Set();
    const [kept, transient] = await Promise.all([
      db.selectFrom("media_files").select("id").where("id", "in", keys).execute(),
      db.selectFrom("transient_speech").select("id").where("id", "in", keys).execute(),
    ]);
    return new Set([...kept, ...transient].map((row) => row.id));
  }, options);
}

/** What the file responder needs to serve a stored file. */
export function servedFile(file: Pick<MediaFile, "id" | "name" | "contentType" | "size" | "updatedAt">): ServedFile {
  return { key: file.id, name: file.name, contentType: file.contentType, size: file.size, updatedAt: file.updatedAt };
}
