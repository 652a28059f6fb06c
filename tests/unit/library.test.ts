import { Readable } from "node:stream";
import { beforeEach, describe, expect, it, vi } from "vitest";

// A small quota for this file's settings (parsed when the app's modules are first imported).
vi.hoisted(() => {
  process.env.USER_STORAGE_QUOTA_MB = "0.01";
});

import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { pngDimensions, sniffM4a, sniffWebm, wavDurationMs } from "~/lib/storage/file-signatures";
import { storeGenerated } from "~/models/media/ai-media.server";
import {
  deleteLibraryFile,
  getLibraryFile,
  libraryJson,
  libraryQuerySchema,
  listLibrary,
  renameLibraryFile,
  storageUsage,
} from "~/models/media/library-files.server";
import { requireStorageLeft } from "~/models/media/storage-quota.server";
import { storeMedia } from "~/models/media/media-commit.server";
import { createProject, getProject } from "~/models/projects/project.server";
import { providerAndModel } from "~/services/media/generation.server";
import { isoMedia, mp3Frames, PNG_BYTES, webmBytes } from "../support/media";
import { newUserId } from "../support/user-rows";

const QUOTA = Math.floor(0.01 * 1024 * 1024); // 10485 bytes

/** A minimal PCM WAV header (mono, 8 kHz, 16-bit) with `dataBytes` of silence. */
function wav(dataBytes: number): Buffer {
  const buffer = Buffer.alloc(44 + dataBytes);
  buffer.write("RIFF", 0, "latin1");
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write("WAVEfmt ", 8, "latin1");
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(8000, 24);
  buffer.writeUInt32LE(16000, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36, "latin1");
  buffer.writeUInt32LE(dataBytes, 40);
  return buffer;
}

let alice: string;
let bob: string;
beforeEach(async () => {
  alice = await newUserId();
  bob = await newUserId();
});

const store = (userId: string, kind: Parameters<typeof storeMedia>[1], bytes: Buffer, name: string) =>
  storeMedia(userId, kind, Readable.from([bytes]), name);

describe("file signatures for the library", () => {
  it("tells WebM, M4A, PNG sizes and WAV lengths from the first bytes", () => {
    expect(sniffWebm(webmBytes())).toBe("video/webm");
    expect(sniffWebm(isoMedia("isom"))).toBeNull();
    expect(sniffM4a(isoMedia("M4A "))).toBe("audio/mp4");
    expect(sniffM4a(isoMedia("isom"))).toBe("audio/mp4");
    expect(sniffM4a(isoMedia("avif"))).toBeNull();
    expect(sniffM4a(webmBytes())).toBeNull();
    expect(pngDimensions(PNG_BYTES)).toEqual({ width: 1, height: 1 });
    expect(pngDimensions(webmBytes())).toBeNull();
    expect(wavDurationMs(wav(16000))).toBe(1000);
    expect(wavDurationMs(mp3Frames())).toBeNull();
  });
});

describe("the library model", () => {
  it("lists every kind of the person's files in one list, filtered, searched, sorted and paged; never another's", async () => {
    await store(alice, "voice", mp3Frames(4), "Take");
    await store(alice, "photo", PNG_BYTES, "Holiday");
    await storeGenerated(alice, "speech", wav(800), "speech-hello", {
      prompt: "Hello 100% world",
      voice: "en",
      provider: "espeak-ng",
    });
    await store(bob, "photo", PNG_BYTES, "Bob's");

    const all = await listLibrary(alice);
    expect(all.total).toBe(3);
    expect(all.files.map((file) => file.kind)).toEqual(["speech", "photo", "voice"]);
    expect((await listLibrary(alice, { kind: "photo" })).files.map((file) => file.name)).toEqual(["Holiday.png"]);
    expect((await listLibrary(alice, { q: "holi" })).files.map((file) => file.name)).toEqual(["Holiday.png"]);
    // The prompt is searched; LIKE's own characters are literal.
    expect((await listLibrary(alice, { q: "100%" })).files.map((file) => file.kind)).toEqual(["speech"]);
    expect((await listLibrary(alice, { q: "_" })).total).toBe(0);
    expect((await listLibrary(alice, { sort: "date" })).files.map((file) => file.kind)).toEqual([
      "voice",
      "photo",
      "speech",
    ]);
    const bySize = (await listLibrary(alice, { sort: "-size" })).files.map((file) => file.size);
    expect(bySize).toEqual([...bySize].sort((a, b) => b - a));
    const page2 = await listLibrary(alice, { perPage: 2, page: 2 });
    expect(page2).toMatchObject({ total: 3, page: 2 });
    expect(page2.files.map((file) => file.kind)).toEqual(["voice"]);
    expect((await listLibrary(bob)).total).toBe(1);
  });

  it("keeps provenance of generated files, null for uploads; dimensions and lengths from the first bytes", async () => {
    const spoken = await storeGenerated(alice, "speech", wav(1600), "speech-hi", {
      prompt: "Hi",
      voice: "English (en)",
      ...providerAndModel("openai:tts-1"),
    });
    const photo = await store(alice, "photo", PNG_BYTES, "Snap");
    const readBack = await getLibraryFile(alice, spoken.file.id);
    expect(readBack.provenance).toEqual({
      prompt: "Hi",
      style: null,
      voice: "English (en)",
      provider: "openai",
      model: "tts-1",
      source: null,
    });
    expect(readBack.durationMs).toBe(100);
    const snap = await getLibraryFile(alice, photo.id);
    expect(snap.provenance).toBeNull();
    expect(snap).toMatchObject({ width: 1, height: 1 });
    expect(libraryJson(snap)).toMatchObject({ kind: "photo", url: `/media/${photo.id}`, provenance: null, width: 1 });
    expect(providerAndModel("espeak-ng")).toEqual({ provider: "espeak-ng", model: null });
    expect(providerAndModel("replicate:owner/model")).toEqual({ provider: "replicate", model: "owner/model" });
  });

  it("reads a row written before provenance was kept (no columns set) as provenance null", async () => {
    const file = await store(alice, "image", PNG_BYTES, "old");
    await db.updateTable("media_files").set({ prompt: null, provenance: null }).where("id", "=", file.id).execute();
    expect((await getLibraryFile(alice, file.id)).provenance).toBeNull();
  });

  it("renames by id keeping the kind's extension; blank 422, taken 409, another's 404", async () => {
    const memo = await store(alice, "memo", isoMedia("M4A "), "first");
    await store(alice, "memo", isoMedia("M4A "), "second");
    expect((await renameLibraryFile(alice, memo.id, "  Groceries ")).name).toBe("Groceries.m4a");
    await expect(renameLibraryFile(alice, memo.id, " ")).rejects.toMatchObject({ status: 422 });
    await expect(renameLibraryFile(alice, memo.id, "second.m4a")).rejects.toMatchObject({ status: 409 });
    await expect(renameLibraryFile(bob, memo.id, "mine")).rejects.toMatchObject({ status: 404 });
    expect((await getLibraryFile(alice, memo.id)).name).toBe("Groceries.m4a");
  });

  it("deletes by id, detaching the file from projects; another's is 404", async () => {
    const photo = await store(alice, "photo", PNG_BYTES, "cover");
    const project = await createProject(alice, { title: "Trip", image_file: photo.id });
    expect(project.image_file).toBe("cover.png");
    await expect(deleteLibraryFile(bob, photo.id)).rejects.toBeInstanceOf(DomainError);
    await deleteLibraryFile(alice, photo.id);
    expect((await getProject(alice, project.id))?.image_file).toBeNull();
    await expect(getLibraryFile(alice, photo.id)).rejects.toMatchObject({ status: 404 });
  });

  it("the query schema refuses a bad kind, sort or page with a sentence", () => {
    expect(libraryQuerySchema.parse({})).toMatchObject({ sort: "-date", page: 1, per_page: 24 });
    expect(libraryQuerySchema.parse({ kind: "", sort: "", page: "" })).toMatchObject({
      kind: undefined,
      sort: "-date",
      page: 1,
    });
    expect(libraryQuerySchema.safeParse({ kind: "music" }).error?.issues[0].message).toMatch(/^kind must be one of/);
    expect(libraryQuerySchema.safeParse({ sort: "name" }).error?.issues[0].message).toBe(
      "sort must be one of: -date, date, -size, size",
    );
    expect(libraryQuerySchema.safeParse({ page: "0" }).success).toBe(false);
  });
});

describe("the storage quota", () => {
  it("counts every kind together and refuses what would pass it, keeping nothing", async () => {
    await store(alice, "photo", Buffer.concat([PNG_BYTES, Buffer.alloc(QUOTA - 1000 - PNG_BYTES.length)]), "big");
    expect((await storageUsage(alice)).usedBytes).toBe(QUOTA - 1000);
    await expect(store(alice, "clip", webmBytes(2000), "too much")).rejects.toMatchObject({
      status: 413,
      detail: expect.stringMatching(/^Not enough storage left/),
    });
    await expect(storeGenerated(alice, "speech", wav(2000), "speech-x", { prompt: "x" })).rejects.toMatchObject({
      status: 413,
    });
    // What fits still goes in; at exactly the quota generations are refused up front.
    await store(alice, "clip", webmBytes(1000 - 16), "just fits");
    expect((await storageUsage(alice)).usedBytes).toBe(QUOTA);
    await expect(requireStorageLeft(alice)).rejects.toMatchObject({ status: 413 });
    // Another person's room is their own.
    await expect(requireStorageLeft(bob)).resolves.toBeUndefined();
    const usage = await storageUsage(alice);
    expect(usage).toMatchObject({ quotaBytes: QUOTA, byKind: { photo: QUOTA - 1000, clip: 1000, speech: 0 } });
    expect((await listLibrary(alice)).total).toBe(2);
  });
});
