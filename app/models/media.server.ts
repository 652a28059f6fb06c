import type { Readable } from "node:stream";
import { sql } from "kysely";
import type { MediaFilesTable } from "~/lib/db-schema";
import { isUniqueViolation } from "~/lib/db-dialect.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { DomainError } from "~/lib/domain-error";
import type { ServedFile } from "~/lib/file-response.server";
import { pngDimensions, sniffM4a, sniffMp3, sniffPng, sniffVideo, sniffWav, sniffWebm, wavDurationMs } from "~/lib/file-signatures";
import { monotonicIso, newId } from "~/lib/ids.server";
import { fileStore, FileTooLargeError, UnsupportedContentError, type StagedFile } from "~/lib/storage.server";
import { tooLargeMessage } from "~/lib/upload.server";
import { formatBytes } from "~/shared/bytes";
import { quotaExceeded, requireWithinQuota, storageLeft, storageUse, StorageHold } from "./storage-quota.server";
import { checkMediaName, lookupName, nameFromUpload, numberedName, type MediaKind } from "~/shared/media-names";
import type { Provenance } from "~/shared/library-rules";

/**
 * The user's stored files (SPEC §2 Voices and Video hub, §3 Voice file and Video file). Every
 * function takes the user's id and every query is scoped by it: another user's file is
 * indistinguishable from one that does not exist. The bytes live in the file store under the row's
 * id; the display name is only a column, so a rename is a row update.
 *
 * Order of writes, so that neither a row nor a file can be left alone: a new file is complete on disk
 * before its row is inserted (a crash in between leaves a file without a row), and a deleted file's
 * row goes first (a crash leaves the same). The store's sweep removes such files: at start, once
 * after the grace period, and hourly (scheduled by app/services/housekeeping.server.ts, never on import).
 * Reading an upload from a request is app/services/media-upload.server.ts's: the functions here take
 * plain inputs (the user's id, names, streams, a file the store has staged and its first bytes).
 *
 * Refusals are DomainErrors (404, 409, 413, 415, 422) with the text the API answers.
 */
export type { MediaKind } from "~/shared/media-names";

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

/**
 * @deprecated Media refusals are DomainErrors; this name only keeps `instanceof MediaError` working in
 * screens not yet switched (app/routes/voices.tsx, videos.tsx).
 */
export const MediaError = DomainError;

const MiB = 1024 * 1024;

interface KindRules {
  maxBytes: number;
  /** The Content-Type the first bytes show, or null when they are not this kind of file. */
  sniff: (head: Uint8Array) => string | null;
  unsupportedMessage: string;
}

/** Per kind: size limit (settings VOICE_MAX_BYTES, VIDEO_MAX_BYTES) and what the content must be. */
export const MEDIA_RULES: Record<MediaKind, KindRules> = {
  voice: {
    maxBytes: env.voiceMaxBytes,
    sniff: sniffMp3,
    unsupportedMessage: "Only MP3 files allowed",
  },
  video: {
    maxBytes: env.videoMaxBytes,
    sniff: sniffVideo,
    unsupportedMessage: "Unsupported video format: upload an MP4, MOV, WebM, MKV, AVI or another video file",
  },
  // Files the AI tools generate (app/ai): never uploaded, stored through storeMedia.
  speech: { maxBytes: 200 * MiB, sniff: sniffWav, unsupportedMessage: "Generated speech must be WAV audio" },
  image: { maxBytes: 200 * MiB, sniff: sniffPng, unsupportedMessage: "Generated images must be PNG" },
  aivideo: { maxBytes: 200 * MiB, sniff: sniffVideo, unsupportedMessage: "Generated video must be a video file" },
  sketch: { maxBytes: 200 * MiB, sniff: sniffPng, unsupportedMessage: "Sketch results must be PNG" },
  // Saved to the library from Camera, Camera V2 and Voice memo (POST /api/library/upload).
  photo: { maxBytes: 50 * MiB, sniff: sniffPng, unsupportedMessage: "A photo must be a PNG image" },
  clip: { maxBytes: env.videoMaxBytes, sniff: sniffWebm, unsupportedMessage: "A camera clip must be a WebM video" },
  memo: { maxBytes: env.voiceMaxBytes, sniff: sniffM4a, unsupportedMessage: "A voice memo must be M4A (MP4 audio)" },
};

// The quota's rule and refusal live in storage-quota.server.ts (text counts too); named here as before.
export { QUOTA_EXCEEDED, quotaMessage, storageLeft } from "./storage-quota.server";

/** How much an upload may hold: the largest of the kinds' limits, or what the quota leaves when that is less. */
export interface UploadLimit {
  maxBytes: number;
  /** The quota set the limit: a 413 is then the quota's refusal. */
  quotaBound: boolean;
  /** The person's quota (their own or USER_STORAGE_QUOTA_MB), for the refusal's words. */
  quotaBytes: number;
}

/** Bytes the person stores, files and text together (in-flight uploads not counted). */
export async function storageUsed(userId: string): Promise<number> {
  const use = await storageUse(userId);
  return use.mediaBytes + use.textBytes;
}

/** Refuses (413) a generation before the provider is asked when the person has no room left. */
export async function requireStorageLeft(userId: string): Promise<void> {
  const use = await storageUse(userId);
  if (use.quotaBytes - use.mediaBytes - use.textBytes - use.reservedBytes <= 0) throw quotaExceeded(use.quotaBytes);
}

/**
 * The kinds' largest limit, or what the quota leaves when that is less (then a 413 is the quota's).
 * What is left here counts what is stored, not what other uploads hold in flight (they may yet fail):
 * the upload's own StorageHold refuses it, as its bytes arrive, when they find no room.
 */
export async function uploadLimit(userId: string, kinds: readonly MediaKind[]): Promise<UploadLimit> {
  const use = await storageUse(userId);
  const left = Math.max(0, use.quotaBytes - use.mediaBytes - use.textBytes);
  const kindMax = Math.max(...kinds.map((kind) => MEDIA_RULES[kind].maxBytes));
  return { maxBytes: Math.min(kindMax, left), quotaBound: left < kindMax, quotaBytes: use.quotaBytes };
}

/** A refusal of an upload under `limit`: a 413 is the quota's when the quota set the limit. */
export function quotaRefusal(limit: UploadLimit, error: unknown): unknown {
  return limit.quotaBound && error instanceof DomainError && error.status === 413 ? quotaExceeded(limit.quotaBytes) : error;
}

/** What the first bytes tell about a file, kept with its row (dimensions of PNGs, length of WAVs). */
interface Described {
  width: number | null;
  height: number | null;
  durationMs: number | null;
}
function describeHead(head: Uint8Array | null): Described {
  const size = head ? pngDimensions(head) : null;
  return { width: size?.width ?? null, height: size?.height ?? null, durationMs: head ? wavDurationMs(head) : null };
}

/** The kind's content check, keeping the head it judged so the row can describe the file. */
export function inspectKeepingHead(kind: MediaKind) {
  let head: Uint8Array | null = null;
  return {
    inspect: (bytes: Uint8Array) => {
      head = bytes;
      return MEDIA_RULES[kind].sniff(bytes);
    },
    described: () => describeHead(head),
  };
}

export const mediaNotFound = (kind: MediaKind) => (kind === "voice" ? "Voice file not found" : "Video not found");
const NAME_TAKEN = "A file with that name already exists";

/** 409 when the person has a file of this kind by the name an upload's file name gives. */
export async function refuseTakenName(userId: string, kind: MediaKind, filename: string): Promise<void> {
  if (await getMediaByName(userId, kind, nameFromUpload(filename, kind))) throw new DomainError(409, NAME_TAKEN);
}

export function maxBytesLabel(kind: MediaKind) {
  return formatBytes(MEDIA_RULES[kind].maxBytes);
}

type Row = Pick<MediaFilesTable, "id" | "kind" | "name" | "content_type" | "size" | "created_at" | "updated_at" | "prompt" | "provenance" | "width" | "height" | "duration_ms">;
export const MEDIA_COLUMNS = ["id", "kind", "name", "content_type", "size", "created_at", "updated_at", "prompt", "provenance", "width", "height", "duration_ms"] as const;
const COLUMNS = MEDIA_COLUMNS;

function parseProvenance(prompt: string | null | undefined, json: string | null | undefined): Provenance | null {
  if (json === null || json === undefined) return null;
  let rest: Partial<Provenance> = {};
  try {
    rest = JSON.parse(json) as Partial<Provenance>;
  } catch {
    // A damaged record reads as what it still says: the prompt.
  }
  return { prompt: prompt ?? null, style: rest.style ?? null, voice: rest.voice ?? null, provider: rest.provider ?? null, model: rest.model ?? null, source: rest.source ?? null };
}

const numberOrNull = (value: number | string | null | undefined) => (value === null || value === undefined ? null : Number(value));

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
  const row = await db.selectFrom("media_files").select(COLUMNS).where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
  return row ? toFile(row) : undefined;
}

/** `desired` if free, else "desired (2)", "(3)", ...: the first name no file of this user and kind has. */
export async function freeName(userId: string, kind: MediaKind, desired: string, alsoTaken: Set<string>): Promise<string> {
  const extensionLength = desired.length - desired.lastIndexOf(".");
  const base = desired.slice(0, desired.length - extensionLength);
  const escaped = base.replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db
    .selectFrom("media_files")
    .select("name")
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .where((eb) => eb.or([eb("name", "=", desired), sql<boolean>`${eb.ref("name")} like ${`${escaped} (%`} escape '\\'`]))
    .execute();
  const taken = new Set([...rows.map((row) => row.name), ...alsoTaken]);
  if (!taken.has(desired)) return desired;
  for (let n = 2; ; n++) {
    const candidate = numberedName(desired, n, kind);
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Commits a staged file under a new row named `desired`. When the name is taken, `whenTaken` says
 * what happens: "number" takes the next free "name (2)", "refuse" is a 409. The file is discarded on failure.
 *
 * The quota (storage-quota.server.ts): `hold` is the reservation the bytes were staged under (one is
 * made here when none is given). It covers the staged size before the store's commit and keeps covering
 * it during that commit (on S3 a server-side copy of seconds), so no other upload of the person can take
 * that room meanwhile; the row's insert, the reservation's delete and the quota check are then one
 * transaction. Past the quota: 413 and nothing kept. The hold is consumed or released either way.
 *
 * Order, and what a crash (kill -9) between two steps leaves, on disk and on S3 alike:
 * 1. bytes under a temporary key (`tmp/<instance id>/…`; on S3 a multipart upload) → crash: a
 *    temporary file or unfinished upload, cleared when this instance starts again, or by another
 *    instance's sweep once older than the grace period;
 * 2. commit = rename (disk) or server-side copy (S3) to the final key `objects/<id>`, then the
 *    temporary key is deleted → crash: bytes without a row (no row names the id, so nobody sees them)
 *    and possibly the temporary copy: the sweep removes both once older than the grace period (an S3
 *    copy is dated by the copy, a renamed file by its last write, i.e. the end of the upload);
 * 3. the row is inserted (the file becomes visible) → nothing left over.
 * A crash leaves a reservation row too: it stops counting after RESERVATION_LIVE_MS.
 * A row is never written before its bytes are complete under the final key, so a row without bytes
 * cannot happen; bytes without a row live at most until the first sweep after the grace period
 * (sweeps run at start, 16 minutes later and hourly). The reverse order (row first) would show a row
 * whose bytes may never arrive.
 */
export async function commitStagedMedia(
  userId: string,
  kind: MediaKind,
  staged: StagedFile,
  desired: string,
  whenTaken: "number" | "refuse",
  extra: Described & { provenance?: Provenance | null } = { width: null, height: null, durationMs: null },
  hold: StorageHold = new StorageHold(userId),
): Promise<MediaFile> {
  try {
    await hold.cover(staged.size);
  } catch (error) {
    await Promise.all([fileStore.discard(staged), hold.release()]);
    throw error;
  }
  const id = newId();
  try {
    await fileStore.commit(staged, id);
  } catch (error) {
    await Promise.all([fileStore.discard(staged), hold.release()]);
    throw error;
  }
  const tried = new Set<string>();
  try {
    // Two files racing for one name: the unique index decides; the loser takes the next number or is
    // refused. A unique violation ends its transaction (PostgreSQL aborts it); the next try is a new one.
    // Each round of racers has a winner, so N racing for one name need up to N tries (the person's row
    // lock makes them meet more often than bare inserts did).
    for (let attempt = 0; attempt < 10; attempt++) {
      const name = whenTaken === "number" ? await freeName(userId, kind, desired, tried) : desired;
      const now = monotonicIso();
      const { provenance = null } = extra;
      const { prompt = null, ...rest } = provenance ?? {};
      const row = {
        id,
        user_id: userId,
        kind,
        name,
        content_type: staged.contentType,
        size: staged.size,
        created_at: now,
        updated_at: now,
        prompt: provenance ? prompt : null,
        provenance: provenance ? JSON.stringify(rest) : null,
        width: extra.width,
        height: extra.height,
        duration_ms: extra.durationMs,
      };
      try {
        await db.transaction().execute(async (trx) => {
          // The row first (its trigger adds the size to the person's row and takes it), then the
          // reservation it replaces goes, then the check: all or nothing.
          await trx.insertInto("media_files").values(row).execute();
          await trx.deleteFrom("storage_reservations").where("id", "=", hold.id).where("user_id", "=", userId).execute();
          await requireWithinQuota(trx, userId, hold.id);
        });
        hold.consumed();
        return toFile(row);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (whenTaken === "refuse") throw new DomainError(409, NAME_TAKEN);
        tried.add(name);
      }
    }
    throw new DomainError(409, NAME_TAKEN);
  } catch (error) {
    await Promise.all([fileStore.remove(id), hold.release()]);
    throw error;
  }
}

const isKindOf = (kinds: readonly MediaKind[], kind: string): kind is MediaKind => kinds.includes(kind as MediaKind);
const unknownKind = (kinds: readonly MediaKind[]) => new DomainError(422, `kind must be one of: ${kinds.join(", ")}`);

/** An upload may be of one of `kinds`, named by the client: 422 when `kind` names none of them. */
export function requireKindOf(kinds: readonly MediaKind[], kind: string): MediaKind {
  if (!isKindOf(kinds, kind)) throw unknownKind(kinds);
  return kind;
}

/**
 * Commits a file staged before its kind was known (the library's "Save to library", whose form may
 * name the kind after the file): held to the named kind's content and size (422 unknown kind or an
 * empty file, 415 wrong content, 413 too large; the staged file is discarded). A taken name is
 * numbered: captures are named by the time they were taken, and refusing would lose them.
 */
export async function commitStagedOfKind(
  userId: string,
  kinds: readonly MediaKind[],
  upload: { staged: StagedFile; filename: string; kind: string; head: Uint8Array | null },
  hold: StorageHold = new StorageHold(userId),
): Promise<MediaFile> {
  const refuse = async (error: DomainError) => {
    await Promise.all([fileStore.discard(upload.staged), hold.release()]);
    throw error;
  };
  const { kind } = upload;
  if (!isKindOf(kinds, kind)) return refuse(unknownKind(kinds));
  if (upload.staged.size === 0) return refuse(new DomainError(422, "The file is empty"));
  const rules = MEDIA_RULES[kind];
  const contentType = upload.head ? rules.sniff(upload.head) : null;
  if (!contentType) return refuse(new DomainError(415, rules.unsupportedMessage));
  if (upload.staged.size > rules.maxBytes) return refuse(new DomainError(413, tooLargeMessage(rules.maxBytes)));
  const staged = { ...upload.staged, contentType };
  return commitStagedMedia(userId, kind, staged, nameFromUpload(upload.filename, kind), "number", describeHead(upload.head), hold);
}

/**
 * Stores bytes the app made itself (generated speech, images, video) as the user's file: the same
 * limits, content check and naming as uploads, except that a taken name is numbered ("name (2)"):
 * nobody chose it, so refusing would only lose the generated file.
 */
export async function storeMedia(
  userId: string,
  kind: MediaKind,
  source: Readable,
  name: string,
  provenance: Provenance | null = null,
  options: { expectedBytes?: number } = {},
): Promise<MediaFile> {
  const rules = MEDIA_RULES[kind];
  const limit = await uploadLimit(userId, [kind]);
  const inspection = inspectKeepingHead(kind);
  // The bytes are reserved as they are staged (413 as soon as they pass the room left).
  const hold = new StorageHold(userId, options.expectedBytes ?? null);
  let staged: StagedFile;
  try {
    staged = await fileStore.stage(source, { maxBytes: limit.maxBytes, inspect: inspection.inspect, reserve: hold.cover });
  } catch (error) {
    await hold.release();
    if (error instanceof FileTooLargeError) throw limit.quotaBound ? quotaExceeded(limit.quotaBytes) : new DomainError(413, tooLargeMessage(error.maxBytes));
    if (error instanceof UnsupportedContentError) throw new DomainError(415, rules.unsupportedMessage);
    throw error;
  }
  return commitStagedMedia(userId, kind, staged, nameFromUpload(name, kind), "number", { ...inspection.described(), provenance }, hold);
}

/** SPEC §5: the new name is trimmed and gets the kind's extension when missing. 404 / 409 / 422 as DomainError. */
export async function renameMedia(userId: string, kind: MediaKind, oldName: string, newName: unknown): Promise<MediaFile> {
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
export async function writeMediaName(userId: string, current: MediaFile, name: string, notFound: () => DomainError): Promise<MediaFile> {
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
  const result = await db.deleteFrom("media_files").where("user_id", "=", userId).where("id", "=", current.id).executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) return false;
  await fileStore.remove(current.id);
  return true;
}

/**
 * Removes stored files that have no row and stale temporary files (older than `graceMs`). A file is
 * claimed by its media_files row, or by its transient_speech row while that lives (unkept speech,
 * app/models/transient-speech.server.ts, whose own pruning removes it once expired).
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
