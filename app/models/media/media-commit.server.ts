import type { Readable } from "node:stream";
import { sql } from "kysely";
import { isUniqueViolation } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { monotonicIso, newId } from "~/lib/db/ids.server";
import { fileStore, FileTooLargeError, UnsupportedContentError, type StagedFile } from "~/lib/storage/storage.server";
import { tooLargeMessage } from "~/lib/storage/upload.server";
import { interpolate, msg } from "~/common/i18n/translate";
import type { Provenance } from "~/common/media/library-rules";
import { KIND_MUST_BE } from "~/common/media/media-texts";
import { nameFromUpload, numberedName, type MediaKind } from "~/common/media/media-names";
import { NAME_TAKEN, toFile, type MediaFile } from "./media.server";
import { describeHead, inspectKeepingHead, MEDIA_RULES, type Described } from "./media-rules.server";
import { quotaExceeded, requireWithinQuota, StorageHold, uploadLimit } from "./storage-quota.server";

/**
 * New stored files: a file the store has staged (an upload) or bytes the app made itself (generated
 * speech, images, video) become the person's file under a free or a refused name, within their quota.
 * A new file is complete under its final key before its row is inserted (app/models/media/media.server.ts
 * says why, and what the sweep removes after a crash).
 */
/** `desired` if free, else "desired (2)", "(3)", ...: the first name no file of this user and kind has. */
export async function freeName(
  userId: string,
  kind: MediaKind,
  desired: string,
  alsoTaken: Set<string>,
): Promise<string> {
  const extensionLength = desired.length - desired.lastIndexOf(".");
  const base = desired.slice(0, desired.length - extensionLength);
  const escaped = base.replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db
    .selectFrom("media_files")
    .select("name")
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .where((eb) =>
      eb.or([eb("name", "=", desired), sql<boolean>`${eb.ref("name")} like ${`${escaped} (%`} escape '\\'`]),
    )
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
          await trx
            .deleteFrom("storage_reservations")
            .where("id", "=", hold.id)
            .where("user_id", "=", userId)
            .execute();
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
const unknownKind = (kinds: readonly MediaKind[]) =>
  new DomainError(422, interpolate(KIND_MUST_BE, { kinds: kinds.join(", ") }));
export const FILE_EMPTY = msg("The file is empty");

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
  if (upload.staged.size === 0) return refuse(new DomainError(422, FILE_EMPTY));
  const rules = MEDIA_RULES[kind];
  const contentType = upload.head ? rules.sniff(upload.head) : null;
  if (!contentType) return refuse(new DomainError(415, rules.unsupportedMessage));
  if (upload.staged.size > rules.maxBytes) return refuse(new DomainError(413, tooLargeMessage(rules.maxBytes)));
  const staged = { ...upload.staged, contentType };
  return commitStagedMedia(
    userId,
    kind,
    staged,
    nameFromUpload(upload.filename, kind),
    "number",
    describeHead(upload.head),
    hold,
  );
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
    staged = await fileStore.stage(source, {
      maxBytes: limit.maxBytes,
      inspect: inspection.inspect,
      reserve: hold.cover,
    });
  } catch (error) {
    await hold.release();
    if (error instanceof FileTooLargeError)
      throw limit.quotaBound ? quotaExceeded(limit.quotaBytes) : new DomainError(413, tooLargeMessage(error.maxBytes));
    if (error instanceof UnsupportedContentError) throw new DomainError(415, rules.unsupportedMessage);
    throw error;
  }
  return commitStagedMedia(
    userId,
    kind,
    staged,
    nameFromUpload(name, kind),
    "number",
    { ...inspection.described(), provenance },
    hold,
  );
}
