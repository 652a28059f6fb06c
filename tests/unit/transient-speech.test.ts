import { Readable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { encodeWav } from "~/ai/speech/wav";
import { db } from "~/lib/db/db.server";
import { fileStore } from "~/lib/storage/storage.server";
import { listLibrary } from "~/models/media/library-files.server";
import { storeMedia } from "~/models/media/media-commit.server";
import { sweepOrphanMedia } from "~/models/media/media.server";
import { QUOTA_EXCEEDED, storageUse } from "~/models/media/storage-quota.server";
import {
  getTransientSpeech,
  keepTransientSpeech,
  pruneTransientSpeech,
  storeTransientSpeech,
  TRANSIENT_SPEECH_PER_PERSON,
  TRANSIENT_SPEECH_TTL_MS,
} from "~/models/media/transient-speech.server";
import { SPEECH_PRUNE_INTERVAL_MS, startHousekeeping } from "~/services/operators/housekeeping.server";
import { mp4Bytes } from "../support/media";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

// A 1 MiB quota, parsed with the settings (before the app's modules are imported).
vi.hoisted(() => {
  process.env.USER_STORAGE_QUOTA_MB = "1";
});

/**
 * Unkept speech (docs/decisions/0042) on SQLite and PostgreSQL: a clip plays for its owner
 * until it expires, is never a library file and counts toward no quota; the housekeeping's prune
 * deletes expired rows and then their bytes; "Save to library" moves a live clip into media_files under
 * the same id with the quota checked. Clocks are passed in (`now`), so nothing sleeps.
 */
/** A WAV of about `bytes` bytes (16 kHz mono, 16-bit). */
const wav = (bytes = 32_000) =>
  encodeWav(
    new Int16Array(Math.floor(bytes / 2)).map((_, i) => Math.round(Math.sin(i / 5) * 8000)),
    16_000,
  );

const clip = (text = "Hello there") => ({
  name: `speech-${text.toLowerCase().replace(/\W+/g, "-")}-20260101-120000`,
  voiceId: "gmw/en-US",
  provenance: { prompt: text, voice: "English (America) (gmw/en-US)", provider: "espeak-ng", model: null },
});

const storedBytes = async (key: string) => (await fileStore.stat(key))?.size ?? null;
const mediaRows = (userId: string) =>
  db
    .selectFrom("media_files")
    .select(["id", "kind", "name", "size", "prompt", "provenance", "duration_ms"])
    .where("user_id", "=", userId)
    .execute();
const person = (userId: string) =>
  db.selectFrom("users").select(["media_bytes"]).where("id", "=", userId).executeTakeFirstOrThrow();

describeOnEachEngine("unkept speech", () => {
  it("plays for its owner until it expires; nobody else ever sees it, and it is no file of the library and counts for nothing", async () => {
    const [alice, bob] = [await newUserId(), await newUserId()];
    const t0 = Date.parse("2030-01-01T00:00:00.000Z");
    const bytes = wav();
    const stored = await storeTransientSpeech(alice, bytes, clip(), t0);
    expect(stored).toMatchObject({
      contentType: "audio/wav",
      size: bytes.length,
      voiceId: "gmw/en-US",
      name: "speech-hello-there-20260101-120000.wav",
    });
    expect(stored.expiresAt).toBe(new Date(t0 + TRANSIENT_SPEECH_TTL_MS).toISOString());
    expect(await storedBytes(stored.id)).toBe(bytes.length);

    expect(await getTransientSpeech(alice, stored.id, t0)).toMatchObject({ id: stored.id });
    expect(await getTransientSpeech(alice, stored.id, t0 + TRANSIENT_SPEECH_TTL_MS - 1)).toMatchObject({
      id: stored.id,
    });
    expect(await getTransientSpeech(alice, stored.id, t0 + TRANSIENT_SPEECH_TTL_MS)).toBeUndefined();
    expect(await getTransientSpeech(bob, stored.id, t0)).toBeUndefined();

    expect(await mediaRows(alice)).toEqual([]);
    expect((await listLibrary(alice)).total).toBe(0);
    expect(await storageUse(alice)).toMatchObject({ mediaBytes: 0, textBytes: 0, reservedBytes: 0 });
    expect(Number((await person(alice)).media_bytes)).toBe(0);
  });

  it("refuses what is not WAV (415) and keeps nothing", async () => {
    const alice = await newUserId();
    await expect(storeTransientSpeech(alice, mp4Bytes(100), clip())).rejects.toMatchObject({ status: 415 });
    expect(await db.selectFrom("transient_speech").select("id").where("user_id", "=", alice).execute()).toEqual([]);
  });

  it("the prune deletes expired clips, rows first and then their bytes, and leaves live ones", async () => {
    const alice = await newUserId();
    const t0 = Date.parse("2030-02-01T00:00:00.000Z");
    const old = await storeTransientSpeech(alice, wav(), clip("old"), t0);
    const fresh = await storeTransientSpeech(alice, wav(), clip("fresh"), t0 + 5 * 60_000);
    // Nothing of theirs has expired yet (the housekeeping's prune is everyone's; one person's is what a new clip runs).
    expect(await pruneTransientSpeech(t0 + TRANSIENT_SPEECH_TTL_MS - 1, alice)).toBe(0);
    expect(await storedBytes(old.id)).not.toBeNull();

    const removed = await pruneTransientSpeech(t0 + TRANSIENT_SPEECH_TTL_MS);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await db.selectFrom("transient_speech").select("id").where("id", "=", old.id).execute()).toEqual([]);
    expect(await storedBytes(old.id)).toBeNull();
    expect(await getTransientSpeech(alice, fresh.id, t0 + TRANSIENT_SPEECH_TTL_MS)).toBeDefined();
    expect(await storedBytes(fresh.id)).not.toBeNull();

    // Later, the other one goes too; a second prune finds nothing.
    await pruneTransientSpeech(t0 + 5 * 60_000 + TRANSIENT_SPEECH_TTL_MS);
    expect(await storedBytes(fresh.id)).toBeNull();
    expect(await pruneTransientSpeech(t0 + 5 * 60_000 + TRANSIENT_SPEECH_TTL_MS, alice)).toBe(0);
  });

  it(`a person keeps at most ${TRANSIENT_SPEECH_PER_PERSON} live clips: a new one pushes the oldest out, bytes included`, async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const bobs = await storeTransientSpeech(bob, wav(2_000), clip("bob"));
    const ids: string[] = [];
    for (let i = 0; i < TRANSIENT_SPEECH_PER_PERSON + 2; i++)
      ids.push((await storeTransientSpeech(alice, wav(2_000), clip(`n ${i}`))).id);
    const live = await db.selectFrom("transient_speech").select("id").where("user_id", "=", alice).execute();
    expect(live.map((row) => row.id).sort()).toEqual(ids.slice(2).sort());
    expect(await storedBytes(ids[0])).toBeNull();
    expect(await storedBytes(ids[1])).toBeNull();
    expect(await storedBytes(ids.at(-1)!)).not.toBeNull();
    // Another person's clips are not touched.
    expect(await getTransientSpeech(bob, bobs.id)).toBeDefined();
  });

  it("the media sweep counts a live clip as claimed", async () => {
    const alice = await newUserId();
    const stored = await storeTransientSpeech(alice, wav(), clip());
    await sweepOrphanMedia({ graceMs: 0, now: Date.now() + 60_000 });
    expect(await storedBytes(stored.id)).not.toBeNull();
  });

  it("'Save to library' moves a live clip into the library under its id, provenance and all; again, it answers the same file", async () => {
    const [alice, bob] = [await newUserId(), await newUserId()];
    const bytes = wav();
    const stored = await storeTransientSpeech(alice, bytes, clip("Keep me"));
    // Another person's clip is not theirs to keep.
    await expect(keepTransientSpeech(bob, stored.id)).rejects.toMatchObject({ status: 404 });

    const kept = await keepTransientSpeech(alice, stored.id);
    expect(kept.created).toBe(true);
    expect(kept.voiceId).toBe("gmw/en-US");
    expect(kept.file).toMatchObject({
      id: stored.id,
      kind: "speech",
      name: "speech-keep-me-20260101-120000.wav",
      size: bytes.length,
      contentType: "audio/wav",
    });
    expect(kept.file.provenance).toEqual({
      prompt: "Keep me",
      style: null,
      voice: "English (America) (gmw/en-US)",
      provider: "espeak-ng",
      model: null,
      source: null,
    });
    expect(kept.file.durationMs).toBe(1000);
    expect(await getTransientSpeech(alice, stored.id)).toBeUndefined();
    expect(Number((await person(alice)).media_bytes)).toBe(bytes.length);
    expect(await storedBytes(stored.id)).toBe(bytes.length);
    // The prune does not touch it any more, whatever the clock says.
    await pruneTransientSpeech(Date.now() + 2 * TRANSIENT_SPEECH_TTL_MS);
    expect(await storedBytes(stored.id)).toBe(bytes.length);

    const again = await keepTransientSpeech(alice, stored.id);
    expect(again).toMatchObject({ created: false, file: { id: stored.id } });
    expect(await mediaRows(alice)).toHaveLength(1);

    // A second clip of the same words takes the next free name.
    const twin = await storeTransientSpeech(alice, wav(), clip("Keep me"));
    expect((await keepTransientSpeech(alice, twin.id)).file.name).toBe("speech-keep-me-20260101-120000 (2).wav");
  });

  it("an expired clip cannot be kept (404); past the quota it is refused (413) and stays unkept", async () => {
    const alice = await newUserId();
    const t0 = Date.now();
    const expired = await storeTransientSpeech(alice, wav(), clip("late"), t0 - TRANSIENT_SPEECH_TTL_MS - 1);
    await expect(keepTransientSpeech(alice, expired.id)).rejects.toMatchObject({ status: 404 });

    // 0.9 MB of the 1 MiB quota taken by a video: a 200 KB clip no longer fits.
    await storeMedia(alice, "video", Readable.from([mp4Bytes(900_000)]), "big.mp4");
    const clipBytes = wav(200_000);
    const stored = await storeTransientSpeech(alice, clipBytes, clip("too big"));
    await expect(keepTransientSpeech(alice, stored.id)).rejects.toMatchObject({ status: 413, code: QUOTA_EXCEEDED });
    expect(await getTransientSpeech(alice, stored.id)).toBeDefined();
    expect((await mediaRows(alice)).map((row) => row.kind)).toEqual(["video"]);
    expect(await storedBytes(stored.id)).toBe(clipBytes.length);
  });

  it("a prune and a save racing for one clip: exactly one takes it, and the bytes stay exactly when it was kept", async () => {
    for (let round = 0; round < 6; round++) {
      const alice = await newUserId();
      const t0 = Date.now();
      const stored = await storeTransientSpeech(alice, wav(4_000), clip(`race ${round}`), t0);
      // The save still sees it live (its clock), the prune already sees it expired (another instance's).
      const [kept, pruned] = await Promise.allSettled([
        keepTransientSpeech(alice, stored.id, t0 + 1),
        pruneTransientSpeech(t0 + TRANSIENT_SPEECH_TTL_MS, alice),
      ]);
      const rows = await mediaRows(alice);
      if (kept.status === "fulfilled") {
        expect(rows).toHaveLength(1);
        expect(await storedBytes(stored.id)).not.toBeNull();
      } else {
        expect(kept.reason).toMatchObject({ status: 404 });
        expect(rows).toEqual([]);
        expect(await storedBytes(stored.id)).toBeNull();
      }
      expect(pruned.status).toBe("fulfilled");
      expect(await db.selectFrom("transient_speech").select("id").where("id", "=", stored.id).execute()).toEqual([]);
    }
  });
});

describe("the housekeeping's schedule for unkept speech", () => {
  it("prunes at start and every half lifetime, and stops with the rest", async () => {
    vi.useFakeTimers();
    try {
      const pruneSpeech = vi.fn(async () => {});
      const housekeeping = startHousekeeping({ sweep: async () => {}, prune: async () => {}, pruneSpeech });
      expect(pruneSpeech).toHaveBeenCalledTimes(1);
      expect(SPEECH_PRUNE_INTERVAL_MS).toBe(TRANSIENT_SPEECH_TTL_MS / 2);
      await vi.advanceTimersByTimeAsync(SPEECH_PRUNE_INTERVAL_MS);
      expect(pruneSpeech).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(4 * SPEECH_PRUNE_INTERVAL_MS);
      expect(pruneSpeech).toHaveBeenCalledTimes(6);
      await housekeeping.stop();
      await vi.advanceTimersByTimeAsync(4 * SPEECH_PRUNE_INTERVAL_MS);
      expect(pruneSpeech).toHaveBeenCalledTimes(6);
    } finally {
      vi.useRealTimers();
    }
  });
});
