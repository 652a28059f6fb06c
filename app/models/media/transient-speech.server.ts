import { Readable } from "node:stream";
import { isUniqueViolation } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { monotonicIso, newId, nowIso } from "~/lib/db/ids.server";
import { fileStore, FileTooLargeError, UnsupportedContentError, type StagedFile } from "~/lib/storage/storage.server";
import { tooLargeMessage } from "~/lib/storage/upload.server";
import { msg } from "~/common/i18n/translate";
import { nameFromUpload } from "~/common/media/media-names";
import { provenanceOf, type ProvenanceInput } from "./ai-media.server";
import { freeName } from "./media-commit.server";
import { getMediaById, toFile, type MediaFile } from "./media.server";
import { inspectKeepingHead, MEDIA_RULES } from "./media-rules.server";
import { requireWithinQuota } from "./storage-quota.server";

/**
 * Speech that is not kept (docs/decisions/0042): what the assistant speaks. The bytes go to
 * the one file store under a random id (so every instance serves them, on disk or S3), named by a row
 * in transient_speech, not media_files: the library, the voice lists, the export, backups and the
 * storage quota never see them. A clip plays for TRANSIENT_SPEECH_TTL_MS, to its owner only
 * (/media/spoken/{id}); then the housekeeping deletes its row and, after it, its bytes. A person has
 * at most TRANSIENT_SPEECH_PER_PERSON live clips: a new one pushes the oldest out, so what unkept
 * speech takes on the store is bounded per person without a quota.
 *
 * "Save to library" (keepTransientSpeech) moves a live clip into media_files under the same id, in one
 * transaction with the quota's check: the bytes stay where they are, and what is kept is what was heard.
 *
 * Order of writes, as for media files (app/models/media/media.server.ts): bytes complete under their key
 * before the row is inserted; a row deleted before its bytes. A crash between two steps leaves bytes
 * without a row, which the media sweep removes (it counts a live transient row as a claim).
 */
export const TRANSIENT_SPEECH_TTL_MS = 10 * 60_000;
/** Live clips one person may have; a new one deletes the oldest beyond it. */
export const TRANSIENT_SPEECH_PER_PERSON = 20;
/** Rows deleted per statement when pruning. */
const PRUNE_BATCH = 200;

/** Where a clip plays while it lives (and, once kept, as long as the person keeps it). */
export const transientSpeechUrl = (id: string) => `/media/spoken/${encodeURIComponent(id)}`;

export const SPEECH_GONE = msg("This speech has expired: speak the reply again to save it");

export interface TransientSpeech {
  id: string;
  /** The name it takes in the library if kept. */
  name: string;
  contentType: string;
  size: number;
  voiceId: string;
  createdAt: string;
  expiresAt: string;
}

const iso = (now: number) => nowIso(new Date(now));

/** The speech's bytes into the store, checked as generated speech is (WAV, size limit); a refusal keeps nothing. */
async function stageSpeech(bytes: Buffer) {
  const rules = MEDIA_RULES.speech;
  const inspection = inspectKeepingHead("speech");
  let staged: StagedFile;
  try {
    staged = await fileStore.stage(Readable.from([bytes]), { maxBytes: rules.maxBytes, inspect: inspection.inspect });
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new DomainError(413, tooLargeMessage(error.maxBytes));
    if (error instanceof UnsupportedContentError) throw new DomainError(415, rules.unsupportedMessage);
    throw error;
  }
  return { staged, durationMs: inspection.described().durationMs };
}

/**
 * Stores spoken bytes for `userId` as a clip that lives TRANSIENT_SPEECH_TTL_MS from `now`. No quota is
 * asked or held (it is never the person's file); the person's expired clips and those beyond
 * TRANSIENT_SPEECH_PER_PERSON go at once.
 */
export async function storeTransientSpeech(
  userId: string,
  bytes: Buffer,
  clip: { name: string; voiceId: string; provenance: ProvenanceInput },
  now = Date.now(),
): Promise<TransientSpeech> {
  const { staged, durationMs } = await stageSpeech(bytes);
  const id = newId();
  try {
    await fileStore.commit(staged, id);
  } catch (error) {
    await fileStore.discard(staged);
    throw error;
  }
  const { prompt, ...rest } = provenanceOf(clip.provenance);
  const row = {
    id,
    user_id: userId,
    name: nameFromUpload(clip.name, "speech"),
    content_type: staged.contentType,
    size: staged.size,
    prompt: prompt ?? "",
    provenance: JSON.stringify(rest),
    voice_id: clip.voiceId,
    duration_ms: durationMs,
    created_at: monotonicIso(),
    expires_at: iso(now + TRANSIENT_SPEECH_TTL_MS),
  };
  try {
    await db.insertInto("transient_speech").values(row).execute();
  } catch (error) {
    await fileStore.remove(id);
    throw error;
  }
  await trimPersonsSpeech(userId, now);
  return toClip(row);
}

function toClip(row: {
  id: string;
  name: string;
  content_type: string;
  size: number | string;
  voice_id: string;
  created_at: string;
  expires_at: string;
}): TransientSpeech {
  return {
    id: row.id,
    name: row.name,
    contentType: row.content_type,
    size: Number(row.size),
    voiceId: row.voice_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

const CLIP_COLUMNS = ["id", "name", "content_type", "size", "voice_id", "created_at", "expires_at"] as const;

/** The person's clip while it lives (another person's, an expired or an unknown one: undefined). */
export async function getTransientSpeech(
  userId: string,
  id: string,
  now = Date.now(),
): Promise<TransientSpeech | undefined> {
  const row = await db
    .selectFrom("transient_speech")
    .select(CLIP_COLUMNS)
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("expires_at", ">", iso(now))
    .executeTakeFirst();
  return row ? toClip(row) : undefined;
}

/**
 * Deletes the rows among `ids` (the statement says which it deleted), then their bytes: a row another
 * statement took at the same time (a prune on another instance, a clip kept meanwhile) is not this
 * one's to remove. Returns how many went.
 */
async function deleteClips(ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const deleted = await db.deleteFrom("transient_speech").where("id", "in", ids).returning("id").execute();
  // A failed removal leaves bytes without a row: the media sweep takes them.
  await Promise.all(
    deleted.map((row) =>
      fileStore.remove(row.id).catch((error) => console.error("[speech] could not remove an expired clip", error)),
    ),
  );
  return deleted.length;
}

/** The person's expired clips and those beyond TRANSIENT_SPEECH_PER_PERSON (oldest first) go, bytes included. */
async function trimPersonsSpeech(userId: string, now: number): Promise<void> {
  await pruneTransientSpeech(now, userId);
  const beyond = await db
    .selectFrom("transient_speech")
    .select("id")
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(PRUNE_BATCH)
    .offset(TRANSIENT_SPEECH_PER_PERSON)
    .execute();
  await deleteClips(beyond.map((row) => row.id));
}

/**
 * Housekeeping: deletes every expired clip (or one person's), row first, then its bytes, in batches.
 * Returns how many went. Run by app/services/operators/housekeeping.server.ts every few minutes on each instance.
 */
export async function pruneTransientSpeech(now = Date.now(), userId?: string): Promise<number> {
  let removed = 0;
  for (;;) {
    let expired = db.selectFrom("transient_speech").select("id").where("expires_at", "<=", iso(now));
    if (userId) expired = expired.where("user_id", "=", userId);
    const ids = (await expired.limit(PRUNE_BATCH).execute()).map((row) => row.id);
    removed += await deleteClips(ids);
    if (ids.length < PRUNE_BATCH) return removed;
  }
}

export interface KeptSpeech {
  file: MediaFile;
  /** The provider's voice it was spoken in (null when the file was kept earlier and only found now). */
  voiceId: string | null;
  /** False when the clip had been kept already (a second "Save to library"): nothing new was stored. */
  created: boolean;
}

/** The clip as a file of the person's library when it was kept already; 404 otherwise. */
async function alreadyKept(userId: string, id: string): Promise<KeptSpeech> {
  const file = await getMediaById(userId, id);
  if (file?.kind === "speech") return { file, voiceId: null, created: false };
  throw new DomainError(404, SPEECH_GONE);
}

/**
 * "Save to library": the person's live clip becomes their speech file (kind "speech", the same id, its
 * name numbered when taken, its provenance kept), in one transaction that deletes the clip's row,
 * inserts the media row and checks the quota (413, and the clip stays unkept). Expired, unknown or
 * another person's: 404. Saving a clip already kept answers that file again (created: false).
 */
export async function keepTransientSpeech(userId: string, id: string, now = Date.now()): Promise<KeptSpeech> {
  const clip = await db
    .selectFrom("transient_speech")
    .selectAll()
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("expires_at", ">", iso(now))
    .executeTakeFirst();
  if (!clip) return alreadyKept(userId, id);
  const tried = new Set<string>();
  for (let attempt = 0; attempt < 10; attempt++) {
    const name = await freeName(userId, "speech", clip.name, tried);
    const at = monotonicIso();
    const row = {
      id: clip.id,
      user_id: userId,
      kind: "speech",
      name,
      content_type: clip.content_type,
      size: Number(clip.size),
      created_at: at,
      updated_at: at,
      prompt: clip.prompt,
      provenance: clip.provenance,
      width: null,
      height: null,
      duration_ms: clip.duration_ms === null ? null : Number(clip.duration_ms),
    };
    try {
      // The clip's row first (a prune or a second save racing for it finds nothing), then the media
      // row (its trigger counts the bytes on the person's row), then the quota's check: all or nothing.
      const moved = await db.transaction().execute(async (trx) => {
        const taken = await trx
          .deleteFrom("transient_speech")
          .where("id", "=", id)
          .where("user_id", "=", userId)
          .where("expires_at", ">", iso(now))
          .returning("id")
          .executeTakeFirst();
        if (!taken) return false;
        await trx.insertInto("media_files").values(row).execute();
        await requireWithinQuota(trx, userId);
        return true;
      });
      if (!moved) return alreadyKept(userId, id);
      return { file: toFile(row), voiceId: clip.voice_id, created: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Two files racing for one name: the next try takes the next number (as commitStagedMedia does).
      tried.add(name);
    }
  }
  throw new DomainError(409, msg("A file with that name already exists"));
}
