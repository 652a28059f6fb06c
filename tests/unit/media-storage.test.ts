import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/lib/db/db.server";
import { sniffMp3, sniffVideo } from "~/lib/storage/file-signatures";
import { createDiskStore } from "~/lib/storage/disk-store.server";
import { FileTooLargeError, SWEEP_GRACE_MS, UnsupportedContentError } from "~/lib/storage/storage.server";
import { DomainError } from "~/lib/domain-error";
import { receiveMultipartUpload } from "~/lib/storage/upload.server";
import {
  deleteMedia,
  getMediaById,
  getMediaByName,
  listMedia,
  renameMedia,
  sweepOrphanMedia,
} from "~/models/media/media.server";
import { storeMedia } from "~/models/media/media-commit.server";
import { createUser } from "~/models/accounts/user.server";
import { scheduleSweeps } from "~/services/operators/housekeeping.server";
import { receiveMediaUpload } from "~/services/media/media-upload.server";
import { mp3Frames, mp3WithId3, mp4Bytes, PNG_BYTES } from "../support/media";

const tempRoot = () => fs.mkdtempSync(path.join(os.tmpdir(), "studio-store-"));
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
    : [];
const mediaDir = () => path.join(process.env.DATA_DIR!, "media");
const newUser = (prefix = "media") =>
  createUser(`${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`, "password123");

/**
 * A multipart request with one file part in `file`. With `hold`, the body stops after the first
 * `heldAfter` bytes of the file and never ends (a client still sending a large file).
 */
function multipartRequest(filename: string, bytes: Buffer, { hold = false, heldAfter = 1024 } = {}) {
  const boundary = "----unit-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(head));
      controller.enqueue(new Uint8Array(hold ? bytes.subarray(0, heldAfter) : bytes));
      if (!hold) {
        controller.enqueue(new Uint8Array(tail));
        controller.close();
      }
    },
  });
  return new Request("http://localhost/upload", {
    method: "POST",
    body,
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
    duplex: "half",
  } as RequestInit);
}

/** A stream that sends `chunks` and then fails, like a client that disconnects mid-upload. */
function interrupted(chunks: Buffer[]) {
  return new Readable({
    read() {
      const next = chunks.shift();
      if (next) this.push(next);
      else this.destroy(new Error("client went away"));
    },
  });
}

describe("disk file store", () => {
  it("stages with a byte count and the sniffed type, then commits under the key", async () => {
    const root = tempRoot();
    const store = createDiskStore(root);
    const bytes = Buffer.concat([mp3WithId3(), Buffer.alloc(10_000, 3)]);
    const staged = await store.stage(Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]), {
      maxBytes: 20_000,
      inspect: sniffMp3,
    });
    expect(staged).toMatchObject({ size: bytes.length, contentType: "audio/mpeg" });
    await store.commit(staged, "abcdef0123456789");
    expect(filesUnder(path.join(root, "tmp"))).toEqual([]);
    expect(await store.stat("abcdef0123456789")).toMatchObject({ size: bytes.length });
    const chunks: Buffer[] = [];
    for await (const chunk of store.open("abcdef0123456789", { start: 0, end: 2 })) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString("latin1")).toBe("ID3");
    await store.remove("abcdef0123456789");
    expect(await store.stat("abcdef0123456789")).toBeNull();
  });

  it("refuses a file over the limit, wrong content, or an empty file, keeping nothing", async () => {
    const root = tempRoot();
    const store = createDiskStore(root);
    const big = Buffer.concat([mp3WithId3(), Buffer.alloc(5000)]);
    await expect(store.stage(Readable.from([big]), { maxBytes: 4000, inspect: sniffMp3 })).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    await expect(store.stage(Readable.from([PNG_BYTES]), { maxBytes: 4000, inspect: sniffMp3 })).rejects.toBeInstanceOf(
      UnsupportedContentError,
    );
    await expect(
      store.stage(Readable.from([Buffer.alloc(8000, 0x41)]), { maxBytes: 9000, inspect: sniffVideo }),
    ).rejects.toBeInstanceOf(UnsupportedContentError);
    await expect(store.stage(Readable.from([]), { maxBytes: 4000, inspect: sniffMp3 })).rejects.toMatchObject({
      empty: true,
    });
    expect(filesUnder(root)).toEqual([]);
  });

  it("leaves nothing behind when the source breaks off mid-way", async () => {
    const root = tempRoot();
    const store = createDiskStore(root);
    const source = interrupted([mp4Bytes(), Buffer.alloc(64 * 1024, 1), Buffer.alloc(64 * 1024, 2)]);
    await expect(store.stage(source, { maxBytes: 10_000_000, inspect: sniffVideo })).rejects.toThrow(
      "client went away",
    );
    expect(filesUnder(root)).toEqual([]);
  });

  it("never turns a key into a path outside the store", () => {
    const store = createDiskStore(tempRoot());
    for (const key of ["../../etc/passwd", "a/b", "", "x".repeat(100), "name.mp3"]) {
      expect(() => store.open(key)).toThrow("Invalid storage key");
    }
  });

  it("sweeps stale orphans and temporary files, keeping claimed and fresh ones", async () => {
    const root = tempRoot();
    const store = createDiskStore(root);
    const stage = () => store.stage(Readable.from([mp4Bytes()]), { maxBytes: 1000, inspect: sniffVideo });
    await store.commit(await stage(), "claimed-000001");
    await store.commit(await stage(), "orphan-0000001");
    fs.mkdirSync(path.join(root, "tmp"), { recursive: true });
    fs.writeFileSync(path.join(root, "tmp", "crashed.part"), "half an upload");
    const known = async (keys: string[]) => new Set(keys.filter((key) => key.startsWith("claimed")));

    // Within the grace period nothing is touched: it may be an upload in flight on another instance.
    expect(await store.sweep(known, { graceMs: 60_000 })).toEqual({ removedFiles: 0, removedTemporary: 0 });
    expect(await store.sweep(known, { graceMs: 60_000, now: Date.now() + 120_000 })).toEqual({
      removedFiles: 1,
      removedTemporary: 1,
    });
    expect(await store.stat("claimed-000001")).not.toBeNull();
    expect(await store.stat("orphan-0000001")).toBeNull();
    expect(filesUnder(path.join(root, "tmp"))).toEqual([]);
  });
});

describe("multipart uploads: the filename check", () => {
  it("refuses as soon as the part's file name is known, before the file's bytes are stored", async () => {
    const root = tempRoot();
    const store = createDiskStore(root);
    const stage = vi.spyOn(store, "stage");
    const seen: string[] = [];
    // The body never ends: only a check made on the part's headers can answer.
    const request = multipartRequest("dup.mp3", mp3Frames(50), { hold: true });
    const refused = receiveMultipartUpload(request, {
      maxBytes: 1_000_000,
      inspect: sniffMp3,
      unsupportedMessage: "Only MP3 files allowed",
      store,
      checkFilename: (filename) => {
        seen.push(filename);
        throw new DomainError(409, "A file with that name already exists");
      },
    });
    await expect(refused).rejects.toMatchObject({ status: 409, message: "A file with that name already exists" });
    expect(seen).toEqual(["dup.mp3"]);
    expect(stage).not.toHaveBeenCalled();
    expect(filesUnder(root)).toEqual([]);
  });

  it("stores the file when the check passes, and hands other errors back as they were thrown", async () => {
    const store = createDiskStore(tempRoot());
    const options = { maxBytes: 1_000_000, inspect: sniffMp3, unsupportedMessage: "Only MP3 files allowed", store };
    const passed = await receiveMultipartUpload(multipartRequest("ok.mp3", mp3Frames(3)), {
      ...options,
      checkFilename: async () => {},
    });
    expect(passed).toMatchObject({ filename: "ok.mp3", staged: { size: 417 * 3, contentType: "audio/mpeg" } });
    await store.discard(passed.staged);
    const broken = new Error("database is down");
    await expect(
      receiveMultipartUpload(multipartRequest("x.mp3", mp3Frames(3)), {
        ...options,
        checkFilename: () => Promise.reject(broken),
      }),
    ).rejects.toBe(broken);
  });
});

describe("media model", () => {
  it("stores, lists, finds and scopes every file by its owner", async () => {
    const [alice, bob] = [await newUser("alice"), await newUser("bob")];
    const file = await storeMedia(alice.id, "voice", Readable.from([mp3WithId3()]), "hello.mp3");
    expect(file).toMatchObject({
      kind: "voice",
      name: "hello.mp3",
      contentType: "audio/mpeg",
      size: mp3WithId3().length,
    });
    expect((await listMedia(alice.id, "voice")).map((f) => f.name)).toEqual(["hello.mp3"]);
    expect(await listMedia(alice.id, "video")).toEqual([]);
    expect(await listMedia(bob.id, "voice")).toEqual([]);
    expect(await getMediaByName(bob.id, "voice", "hello.mp3")).toBeUndefined();
    expect(await getMediaById(bob.id, file.id)).toBeUndefined();
    expect(await deleteMedia(bob.id, "voice", "hello.mp3")).toBe(false);
    await expect(renameMedia(bob.id, "voice", "hello.mp3", "mine")).rejects.toMatchObject({ status: 404 });
    // Bob may use the same name: names are unique per user and kind.
    expect((await storeMedia(bob.id, "voice", Readable.from([mp3WithId3()]), "hello.mp3")).name).toBe("hello.mp3");
    expect((await storeMedia(alice.id, "video", Readable.from([mp4Bytes()]), "hello")).name).toBe("hello.mov");
  });

  it("numbers taken names of generated files, also when they race", async () => {
    const user = await newUser();
    const names = await Promise.all(
      Array.from({ length: 6 }, () =>
        storeMedia(user.id, "voice", Readable.from([mp3WithId3()]), "take.mp3").then((f) => f.name),
      ),
    );
    expect(names.sort()).toEqual([
      "take (2).mp3",
      "take (3).mp3",
      "take (4).mp3",
      "take (5).mp3",
      "take (6).mp3",
      "take.mp3",
    ]);
    // A name with LIKE wildcards is matched literally.
    await storeMedia(user.id, "voice", Readable.from([mp3WithId3()]), "100%_done.mp3");
    expect((await storeMedia(user.id, "voice", Readable.from([mp3WithId3()]), "100%_done.mp3")).name).toBe(
      "100%_done (2).mp3",
    );
  });

  it("uploads refuse a name the user already has (409) and keep nothing; generated files are numbered", async () => {
    const user = await newUser();
    const other = await newUser("other");
    expect((await receiveMediaUpload(user.id, "voice", multipartRequest("take.mp3", mp3Frames(3)))).file.name).toBe(
      "take.mp3",
    );
    const before = filesUnder(mediaDir()).length;
    // The same name once normalised: a different case of the extension, or no extension at all.
    for (const filename of ["take.mp3", "take.MP3", "take"]) {
      await expect(
        receiveMediaUpload(user.id, "voice", multipartRequest(filename, mp3Frames(3))),
      ).rejects.toMatchObject({
        status: 409,
        message: "A file with that name already exists",
      });
    }
    expect(filesUnder(mediaDir()).length).toBe(before);
    expect((await listMedia(user.id, "voice")).map((f) => f.name)).toEqual(["take.mp3"]);
    // Another user's names are no obstacle; generated files still take the next number.
    expect((await receiveMediaUpload(other.id, "voice", multipartRequest("take.mp3", mp3Frames(3)))).file.name).toBe(
      "take.mp3",
    );
    expect((await storeMedia(user.id, "voice", Readable.from([mp3WithId3()]), "take.mp3")).name).toBe("take (2).mp3");
  });

  it("two uploads racing for one name: one is stored, the other is a 409 and leaves no file", async () => {
    const user = await newUser();
    const before = filesUnder(mediaDir()).length;
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        receiveMediaUpload(user.id, "video", multipartRequest("race.mov", mp4Bytes(20_000))),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const result of results.filter((r) => r.status === "rejected")) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ status: 409 });
    }
    expect((await listMedia(user.id, "video")).map((f) => f.name)).toEqual(["race.mov"]);
    expect(filesUnder(mediaDir()).length).toBe(before + 1);
  });

  it("finds a name sent in another Unicode normal form (NFD) for lookups, rename and delete", async () => {
    const user = await newUser();
    const composed = "Caf\u00e9 \u00fcber.mp3";
    const decomposed = composed.normalize("NFD");
    expect(decomposed).not.toBe(composed);
    const file = await storeMedia(user.id, "voice", Readable.from([mp3WithId3()]), decomposed);
    expect(file.name).toBe(composed);
    expect((await getMediaByName(user.id, "voice", decomposed))?.id).toBe(file.id);
    expect((await renameMedia(user.id, "voice", decomposed, "Na\u0308he")).name).toBe("N\u00e4he.mp3");
    expect(await deleteMedia(user.id, "voice", "Na\u0308he.mp3")).toBe(true);
    expect(await listMedia(user.id, "voice")).toEqual([]);
  });

  it("renames by updating the row only; refuses taken and invalid names", async () => {
    const user = await newUser();
    const first = await storeMedia(user.id, "video", Readable.from([mp4Bytes()]), "a.mov");
    await storeMedia(user.id, "video", Readable.from([mp4Bytes()]), "b.mov");
    const renamed = await renameMedia(user.id, "video", "a.mov", "  trip  ");
    expect(renamed).toMatchObject({ id: first.id, name: "trip.mov" });
    expect(renamed.updatedAt > first.updatedAt).toBe(true);
    expect(filesUnder(mediaDir()).some((file) => file.endsWith(first.id))).toBe(true);
    await expect(renameMedia(user.id, "video", "trip.mov", "b")).rejects.toMatchObject({ status: 409 });
    await expect(renameMedia(user.id, "video", "trip.mov", "x/y")).rejects.toMatchObject({ status: 422 });
    await expect(renameMedia(user.id, "video", "trip.mov", " ")).rejects.toMatchObject({ status: 422 });
    await expect(renameMedia(user.id, "video", "nope.mov", "z")).rejects.toBeInstanceOf(DomainError);
    expect((await renameMedia(user.id, "video", "trip.mov", "trip.mov")).name).toBe("trip.mov");
  });

  it("deletes the row and then the file", async () => {
    const user = await newUser();
    const file = await storeMedia(user.id, "voice", Readable.from([mp3WithId3()]), "gone.mp3");
    expect(filesUnder(mediaDir()).some((f) => f.endsWith(file.id))).toBe(true);
    expect(await deleteMedia(user.id, "voice", "gone.mp3")).toBe(true);
    expect(filesUnder(mediaDir()).some((f) => f.endsWith(file.id))).toBe(false);
    expect(await getMediaById(user.id, file.id)).toBeUndefined();
    expect(await deleteMedia(user.id, "voice", "gone.mp3")).toBe(false);
  });

  it("refuses wrong content with 415 and keeps nothing", async () => {
    const user = await newUser();
    const before = filesUnder(mediaDir()).length;
    await expect(storeMedia(user.id, "voice", Readable.from([PNG_BYTES]), "pic.mp3")).rejects.toMatchObject({
      status: 415,
      message: "Only MP3 files allowed",
    });
    await expect(storeMedia(user.id, "video", Readable.from([mp3WithId3()]), "song.mov")).rejects.toMatchObject({
      status: 415,
    });
    expect(filesUnder(mediaDir()).length).toBe(before);
  });

  it("sweeps files whose row is gone (a crash between row and file), not live ones", async () => {
    const user = await newUser();
    const kept = await storeMedia(user.id, "voice", Readable.from([mp3WithId3()]), "kept.mp3");
    const lost = await storeMedia(user.id, "voice", Readable.from([mp3WithId3()]), "lost.mp3");
    // Simulate a crash after the row was deleted but before the file was.
    await db.deleteFrom("media_files").where("id", "=", lost.id).execute();
    const result = await sweepOrphanMedia({ graceMs: 0, now: Date.now() + 1000 });
    expect(result.removedFiles).toBeGreaterThanOrEqual(1);
    const remaining = filesUnder(mediaDir());
    expect(remaining.some((f) => f.endsWith(lost.id))).toBe(false);
    expect(remaining.some((f) => f.endsWith(kept.id))).toBe(true);
  });
});

describe("sweep schedule", () => {
  it("sweeps at start, once just after the grace period, then hourly", () => {
    vi.useFakeTimers();
    try {
      const sweep = vi.fn();
      scheduleSweeps(sweep);
      expect(sweep).toHaveBeenCalledTimes(1);
      // What a restart left behind is younger than the grace period at the first sweep...
      vi.advanceTimersByTime(SWEEP_GRACE_MS);
      expect(sweep).toHaveBeenCalledTimes(1);
      // ...and old enough a minute after it: gone within about 16 minutes, not an hour.
      vi.advanceTimersByTime(60_000);
      expect(sweep).toHaveBeenCalledTimes(2);
      vi.advanceTimersByTime(60 * 60_000 - SWEEP_GRACE_MS - 60_000);
      expect(sweep).toHaveBeenCalledTimes(3);
      vi.advanceTimersByTime(60 * 60_000);
      expect(sweep).toHaveBeenCalledTimes(4);
    } finally {
      vi.useRealTimers();
    }
  });
});
