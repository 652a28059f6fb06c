import type { Kysely } from "kysely";
import type { Database } from "~/lib/db/db-schema";
import { engineOf } from "../../../db/portable";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { env } from "~/lib/settings/env.server";
import { newId, nowIso } from "~/lib/db/ids.server";
import { instanceIdFor } from "~/lib/storage/storage.server";
import { formatBytes } from "~/common/bytes";
import { interpolate } from "~/common/i18n/translate";
import type { MediaKind } from "~/common/media/media-names";
import { QUOTA_PASSED } from "~/common/media/media-texts";
import { MEDIA_RULES } from "./media-rules.server";
import { storageUseRow } from "./storage-use-row.server";

/**
 * The storage quota (USER_STORAGE_QUOTA_MB, or the person's own set by `npm run admin -- quota`) as one rule for every way bytes arrive, held under races
 * on both engines (docs/decisions/0037). What a person uses is
 *
 *   users.media_bytes + users.text_bytes + their live storage_reservations
 *
 * (the two counters are kept by migration 0012's triggers, 0024's for content items, in the statement that
 * writes a file's or an item's row; a reservation is what an upload or generation in flight holds).
 *
 * Every change that adds bytes checks, in the transaction that makes it, with the person's users row
 * locked: on PostgreSQL the row lock makes the person's writers take turns (READ COMMITTED would let
 * each see only committed rows), on SQLite a transaction runs alone. The order is always the written
 * row first, then the person's row (the triggers take it), then the check, so no two writers can wait
 * on each other:
 * - a file: its bytes are reserved while they stream (in 1 MiB steps, StorageHold.cover) and stay
 *   reserved while the file store commits them; the media row's insert, the reservation's delete and
 *   the check are one transaction (app/models/media/media.server.ts commitStagedMedia);
 * - text: an insert or an update that makes an item larger, then the check (app/models/content/content.server.ts).
 * Past the quota: 413 with quotaMessage(), code QUOTA_EXCEEDED, and nothing is kept.
 */

/** Refusals for the storage quota (USER_STORAGE_QUOTA_MB): the API's 413 detail, a screen's text. */
export const QUOTA_EXCEEDED = "quota_exceeded";
export const quotaMessage = (quotaBytes = env.storageQuotaBytes) =>
  interpolate(QUOTA_PASSED, { quota: formatBytes(quotaBytes) });
export const quotaExceeded = (quotaBytes = env.storageQuotaBytes) =>
  new DomainError(413, quotaMessage(quotaBytes), { code: QUOTA_EXCEEDED });

const MiB = 1024 * 1024;
/** A reservation grows up to this much ahead of the bytes: one transaction per MiB of an upload, not per packet. */
export const RESERVATION_STEP = MiB;
/** A reservation counts while it was refreshed this recently: an instance killed mid-upload holds nothing for longer. */
export const RESERVATION_LIVE_MS = 5 * 60_000;
/** While bytes arrive, a reservation is refreshed this often (well inside RESERVATION_LIVE_MS; uploads stall out after 60 s). */
export const RESERVATION_REFRESH_MS = 60_000;

const liveSince = (now = Date.now()) => new Date(now - RESERVATION_LIVE_MS).toISOString();

export interface StorageUse {
  mediaBytes: number;
  textBytes: number;
  /** Bytes held by uploads and generations in flight. */
  reservedBytes: number;
  /** The person's quota: their own (`npm run admin -- quota`, users.storage_quota_bytes) or USER_STORAGE_QUOTA_MB. */
  quotaBytes: number;
}

/**
 * What the person uses (their row's counters and their live reservations, but `exceptReservation`),
 * read on `database` (a transaction, after the person's row was locked, or the database).
 */
async function storageUseOn(
  database: Kysely<Database>,
  userId: string,
  exceptReservation: string | null = null,
): Promise<StorageUse> {
  const row = await storageUseRow.first(database, {
    userId,
    liveSince: liveSince(),
    exceptReservation: exceptReservation ?? "",
  });
  const own = row?.storage_quota_bytes;
  return {
    mediaBytes: Number(row?.media_bytes ?? 0),
    textBytes: Number(row?.text_bytes ?? 0),
    reservedBytes: Number(row?.reserved ?? 0),
    quotaBytes: own === null || own === undefined ? env.storageQuotaBytes : Number(own),
  };
}

const total = (use: StorageUse) => use.mediaBytes + use.textBytes + use.reservedBytes;

/** What the person uses now (not locked: for screens, limits known in advance and the usage API). */
export function storageUse(userId: string): Promise<StorageUse> {
  return storageUseOn(db, userId);
}

/** Bytes the person may still store (never negative), in-flight uploads counted. */
export async function storageLeft(userId: string): Promise<number> {
  const use = await storageUse(userId);
  return Math.max(0, use.quotaBytes - total(use));
}

/**
 * Takes the person's users row until the transaction ends (PostgreSQL; on SQLite the transaction runs
 * alone). FOR NO KEY UPDATE, the lock an UPDATE of the row (migration 0012's triggers) takes: the same
 * strength, so a transaction whose trigger already holds it never has to upgrade it, which deadlocks
 * against a writer queued for the row.
 */
async function lockPerson(trx: Kysely<Database>, userId: string): Promise<void> {
  // SQLite has no row locks: a plain SELECT here took nothing and cost a statement per check.
  if (engineOf(trx) !== "postgres") return;
  await trx.selectFrom("users").select("id").where("id", "=", userId).forNoKeyUpdate().execute();
}

/**
 * Inside the transaction that has just written the person's new bytes (the write's trigger holds their
 * row): 413 (QUOTA_EXCEEDED) when they now use more than the quota, so the transaction rolls back and
 * nothing is kept. `exceptReservation`: the reservation this write replaces (deleted in the same transaction).
 */
export async function requireWithinQuota(trx: Kysely<Database>, userId: string, exceptReservation?: string) {
  const room = await roomLeftLocked(trx, userId, exceptReservation);
  if (room.left < 0) throw quotaExceeded(room.quotaBytes);
}

/** The person's row locked, the bytes they may still store (negative past the quota), e.g. for a version that may be left out (decision 0072). */
export async function roomLeftLocked(trx: Kysely<Database>, userId: string, exceptReservation: string | null = null) {
  await lockPerson(trx, userId);
  const use = await storageUseOn(trx, userId, exceptReservation);
  return { left: use.quotaBytes - total(use), quotaBytes: use.quotaBytes };
}

/**
 * The bytes one upload or generation holds against its person's quota while it is in flight: `cover`
 * as bytes arrive (the reservation grows in RESERVATION_STEP steps; 413 when the quota has no room
 * for them), then the media model commits the file and deletes the reservation in one transaction, or
 * `release` gives the room back. A hold that never covered anything costs no query.
 */
export class StorageHold {
  readonly id = newId();
  /** Bytes reserved now. */
  bytes = 0;
  #written = false;
  #refreshedAt = 0;
  #pending: Promise<void> | null = null;

  /**
   * @param expectedBytes what the whole file will be at most when that is known (a request's
   *   Content-Length, generated bytes in hand): the reservation never runs ahead past it.
   */
  constructor(
    readonly userId: string,
    readonly expectedBytes: number | null = null,
  ) {}

  /**
   * Makes the reservation at least `size` bytes: nothing to wait for (undefined) while it already is
   * and was refreshed lately, which is the upload's hot path; otherwise a promise (a 413 DomainError
   * when the quota has no room).
   */
  cover = (size: number): Promise<void> | undefined => {
    // Bytes are whole (PostgreSQL's bigint refuses 1.5).
    size = Math.ceil(size);
    if (size <= this.bytes && (!this.#written || Date.now() - this.#refreshedAt < RESERVATION_REFRESH_MS))
      return undefined;
    if (this.#pending) return this.#pending.then(() => this.cover(size));
    const pending = size <= this.bytes ? this.#refresh() : this.#grow(size);
    this.#pending = pending.finally(() => (this.#pending = null));
    return this.#pending;
  };

  async #refresh(): Promise<void> {
    const now = nowIso();
    await db
      .updateTable("storage_reservations")
      .set({ updated_at: now })
      .where("id", "=", this.id)
      .where("user_id", "=", this.userId)
      .execute();
    this.#refreshedAt = Date.now();
  }

  async #grow(size: number): Promise<void> {
    const granted = await db.transaction().execute(async (trx) => {
      await lockPerson(trx, this.userId);
      const use = await storageUseOn(trx, this.userId, this.id);
      const left = use.quotaBytes - total(use);
      if (size > left) {
        // Refused: what it held is given back in the same transaction, so two uploads refused at
        // once cannot both be refused for the room the other still held.
        await trx
          .deleteFrom("storage_reservations")
          .where("id", "=", this.id)
          .where("user_id", "=", this.userId)
          .execute();
        return { refusedQuota: use.quotaBytes };
      }
      // A step ahead of the bytes, but never more than half the room beyond them: near the quota the
      // steps shrink, so uploads racing for the last room are not refused for room another only holds ahead.
      const ahead = size + Math.min(RESERVATION_STEP, Math.floor((left - size) / 2));
      const bytes =
        this.expectedBytes !== null && Number.isFinite(this.expectedBytes)
          ? Math.min(ahead, Math.max(size, this.expectedBytes))
          : ahead;
      const row = { id: this.id, user_id: this.userId, instance_id: instanceIdFor(env), bytes, updated_at: nowIso() };
      await trx
        .insertInto("storage_reservations")
        .values(row)
        .onConflict((oc) => oc.column("id").doUpdateSet({ bytes, updated_at: row.updated_at }))
        .execute();
      return bytes;
    });
    if (typeof granted !== "number") {
      this.#written = false;
      this.bytes = 0;
      throw quotaExceeded(granted.refusedQuota);
    }
    this.#written = true;
    this.bytes = granted;
    this.#refreshedAt = Date.now();
  }

  /** The reservation was deleted by the transaction that kept the file. */
  consumed(): void {
    this.bytes = 0;
    this.#written = false;
  }

  /** Gives the reserved room back (after a refusal or a failure); safe to call more than once. */
  async release(): Promise<void> {
    await this.#pending?.catch(() => {});
    if (!this.#written) return;
    this.#written = false;
    this.bytes = 0;
    await db.deleteFrom("storage_reservations").where("id", "=", this.id).where("user_id", "=", this.userId).execute();
  }
}

/**
 * Deletes reservations that no longer count: everyone's older than RESERVATION_LIVE_MS and this
 * instance's from before this process started (an instance killed mid-upload and restarted; nothing of
 * this process can be in flight from then). Run by the housekeeping at start and hourly. Returns how many.
 */
export async function pruneStaleReservations(now = Date.now()): Promise<number> {
  const startedAt = new Date(now - process.uptime() * 1000).toISOString();
  const result = await db
    .deleteFrom("storage_reservations")
    .where((eb) =>
      eb.or([
        eb("updated_at", "<", liveSince(now)),
        eb.and([eb("instance_id", "=", instanceIdFor(env)), eb("updated_at", "<", startedAt)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

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
  return limit.quotaBound && error instanceof DomainError && error.status === 413
    ? quotaExceeded(limit.quotaBytes)
    : error;
}
