import { Readable } from "node:stream";
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sniffVideo } from "~/lib/storage/file-signatures";
import { createS3Store } from "~/lib/storage/s3-store.server";
import { parseStorageUrl } from "~/lib/storage/storage-url.server";
import {
  FileTooLargeError,
  SWEEP_GRACE_MS,
  UnsupportedContentError,
  type FileStore,
} from "~/lib/storage/storage.server";
import { mp4Bytes } from "../support/media";
import { startS3rver, type S3TestServer } from "../support/s3";

/**
 * The S3 store against a real S3-compatible server on loopback: s3rver (tests/support/s3.ts, in this
 * process), storing into a temporary folder that is removed afterwards.
 */
const BUCKET = "studio-test";
const MiB = 1024 * 1024;
const CREDENTIAL_VARIABLES = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"] as const;
const savedEnv = Object.fromEntries(CREDENTIAL_VARIABLES.map((name) => [name, process.env[name]]));

let s3: S3TestServer;
let endpoint: string;
let client: S3Client;

beforeAll(async () => {
  s3 = await startS3rver(BUCKET);
  ({ endpoint, client } = s3);
  // The store reads credentials through the SDK's default chain, as in production (s3rver's fixed pair).
  process.env.AWS_ACCESS_KEY_ID = "S3RVER";
  process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
  process.env.AWS_REGION = "us-east-1";
});

afterAll(async () => {
  await s3?.stop();
  for (const name of CREDENTIAL_VARIABLES) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
});

/** A store of its own (a prefix per test) through the same path production takes: options, no client. */
const storeFor = (prefix: string, extra: { instanceId?: string } = {}): FileStore =>
  createS3Store({ bucket: BUCKET, prefix, endpoint, forcePathStyle: true, ...extra });

async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }),
    );
    keys.push(...(page.Contents ?? []).map((object) => object.Key!));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `total` bytes in 1 MiB chunks made as they are read: chunk i is filled with i % 251, after an MP4 header. */
function generated(total: number): Readable {
  let sent = 0;
  let index = 0;
  const header = mp4Bytes(0);
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const chunk = Buffer.alloc(Math.min(MiB, total - sent), index % 251);
      if (index === 0) header.copy(chunk);
      sent += chunk.length;
      index++;
      this.push(chunk);
    },
  });
}

/** Sends `chunks` and then fails, like a client that disconnects mid-upload. */
function interrupted(chunks: Buffer[]): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (i < chunks.length) this.push(chunks[i++]);
      else this.destroy(new Error("client went away"));
    },
  });
}

const video = { maxBytes: 50 * MiB, inspect: sniffVideo };

describe("S3 store: stage, commit, stat, open", () => {
  it("stages under a temporary key, commits under objects/<key>, and reads all or a byte range", async () => {
    const store = storeFor("basic", { instanceId: "inst1" });
    const bytes = Buffer.concat([mp4Bytes(200_000), Buffer.from("the end")]);
    const staged = await store.stage(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), video);
    expect(staged).toMatchObject({ size: bytes.length, contentType: "video/mp4" });
    expect(staged.tempPath).toMatch(/^basic\/tmp\/inst1\/[0-9a-f-]{36}$/);
    expect(await keysUnder("basic/")).toEqual([staged.tempPath]);

    await store.commit(staged, "media_0001");
    expect(await keysUnder("basic/")).toEqual(["basic/objects/media_0001"]);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "basic/objects/media_0001" }));
    expect(head.ContentType).toBe("video/mp4");

    const info = await store.stat("media_0001");
    expect(info?.size).toBe(bytes.length);
    expect(info?.modified).toBeInstanceOf(Date);
    expect(Math.abs(Date.now() - info!.modified.getTime())).toBeLessThan(60_000);

    expect((await readAll(store.open("media_0001"))).equals(bytes)).toBe(true);
    const range = await readAll(store.open("media_0001", { start: 100_000, end: 100_099 }));
    expect(range.equals(bytes.subarray(100_000, 100_100))).toBe(true);
    const tail = await readAll(store.open("media_0001", { start: bytes.length - 7, end: bytes.length - 1 }));
    expect(tail.toString()).toBe("the end");
  });

  it("answers null for a missing object, ENOENT when opening one, and refuses keys that are not ids", async () => {
    const store = storeFor("missing");
    expect(await store.stat("nothing_here")).toBeNull();
    await expect(readAll(store.open("nothing_here"))).rejects.toMatchObject({ code: "ENOENT" });
    await expect(store.stat("../escape")).rejects.toThrow(/Invalid storage key/);
    expect(() => store.open("a/b/c/d/e")).toThrow(/Invalid storage key/);
    await expect(store.remove("short")).rejects.toThrow(/Invalid storage key/);
  });

  it("discards a staged file", async () => {
    const store = storeFor("discard");
    const staged = await store.stage(Readable.from([mp4Bytes(100)]), video);
    await store.discard(staged);
    expect(await keysUnder("discard/")).toEqual([]);
  });

  it("removes an object", async () => {
    const store = storeFor("remove");
    await store.commit(await store.stage(Readable.from([mp4Bytes(100)]), video), "gone_soon");
    expect(await store.stat("gone_soon")).not.toBeNull();
    await store.remove("gone_soon");
    expect(await store.stat("gone_soon")).toBeNull();
    expect(await keysUnder("remove/")).toEqual([]);
    await store.remove("gone_soon"); // removing twice is not an error
  });
});

describe("S3 store: refusals leave nothing behind", () => {
  it("refuses content the sniffer does not accept, and an empty file", async () => {
    const store = storeFor("refused");
    await expect(store.stage(Readable.from([Buffer.alloc(100_000, "x")]), video)).rejects.toBeInstanceOf(
      UnsupportedContentError,
    );
    await expect(store.stage(Readable.from([]), video)).rejects.toMatchObject({ empty: true });
    expect(await keysUnder("refused/")).toEqual([]);
  });

  it("refuses an upload over the limit after several parts went to the store", async () => {
    const store = storeFor("too-large");
    const error = await store
      .stage(generated(20 * MiB), { maxBytes: 12 * MiB, inspect: sniffVideo })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileTooLargeError);
    expect(await keysUnder("too-large/")).toEqual([]);
    // Just over the limit in one small stream (a single PUT, not multipart) is refused too.
    await expect(
      store.stage(Readable.from([mp4Bytes(2000)]), { maxBytes: 1000, inspect: sniffVideo }),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await keysUnder("too-large/")).toEqual([]);
  });

  it("reports a client that goes away mid-upload and keeps nothing", async () => {
    const store = storeFor("interrupted");
    const chunks = [mp4Bytes(MiB), ...Array.from({ length: 10 }, () => Buffer.alloc(MiB, 3))];
    await expect(store.stage(interrupted(chunks), video)).rejects.toThrow("client went away");
    expect(await keysUnder("interrupted/")).toEqual([]);
  });
});

describe("S3 store: sweep", () => {
  it("removes stale temporary objects and unclaimed objects, keeps claimed and young ones", async () => {
    const store = storeFor("sweep");
    const stage = () => store.stage(Readable.from([mp4Bytes(100)]), video);
    // A crash between stage and commit, on an instance that is gone (a store's own uploads in flight
    // are never swept by itself: a multipart object's LastModified is when the upload began).
    const crashed = storeFor("sweep", { instanceId: "crashed" });
    const leftover = await crashed.stage(Readable.from([mp4Bytes(100)]), video);
    await store.commit(await stage(), "claimed_1");
    await store.commit(await stage(), "orphan_01");
    // Something that is not one of our keys, under objects/ (never asked about, removed when stale).
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: "sweep/objects/not a key", Body: "x" }));
    // Another store's prefix in the same bucket is not touched.
    const neighbour = storeFor("sweep-neighbour");
    await neighbour.commit(await neighbour.stage(Readable.from([mp4Bytes(100)]), video), "neighbour1");

    const asked: string[][] = [];
    const known = async (keys: string[]) => {
      asked.push(keys);
      return new Set(keys.filter((key) => key === "claimed_1"));
    };

    // Everything is younger than the grace period: nothing goes.
    expect(await store.sweep(known)).toEqual({ removedFiles: 0, removedTemporary: 0 });
    expect(await keysUnder("sweep/")).toHaveLength(4);
    expect(asked.flat().sort()).toEqual(["claimed_1", "orphan_01"]);

    // Later than the grace period: the leftover and the orphans go, the claimed object stays.
    const later = Date.now() + SWEEP_GRACE_MS + 60_000;
    expect(await store.sweep(known, { now: later })).toEqual({ removedFiles: 2, removedTemporary: 1 });
    expect(await keysUnder("sweep/")).toEqual(["sweep/objects/claimed_1"]);
    expect(await keysUnder("sweep-neighbour/")).toEqual(["sweep-neighbour/objects/neighbour1"]);
    expect(leftover.tempPath.startsWith("sweep/tmp/")).toBe(true);

    // A shorter grace works the same way.
    expect(await store.sweep(known, { graceMs: 0, now: later })).toEqual({ removedFiles: 0, removedTemporary: 0 });
  });

  it("asks about keys in batches of at most 500", async () => {
    const store = storeFor("many");
    const keys = Array.from({ length: 501 }, (_, i) => `object_${String(i).padStart(4, "0")}`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(
        keys
          .slice(i, i + 50)
          .map((key) => client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `many/objects/${key}`, Body: "x" }))),
      );
    }
    const batches: number[] = [];
    const result = await store.sweep(
      async (batch) => {
        batches.push(batch.length);
        return new Set(batch.filter((key) => Number(key.slice(7)) % 2 === 0));
      },
      { now: Date.now() + SWEEP_GRACE_MS + 60_000 },
    );
    expect(batches).toEqual([500, 1]);
    expect(result).toEqual({ removedFiles: 250, removedTemporary: 0 });
    expect(await keysUnder("many/")).toHaveLength(251);
  });

  // s3rver cannot list past 1000 keys on Node 17+ (it signs continuation tokens with DES, which
  // OpenSSL 3 no longer offers) nor list multipart uploads, so paging and the abort of stale
  // multipart uploads are checked against a stand-in for the client that speaks those replies.
  it("pages through listings and aborts stale multipart uploads (stand-in client)", async () => {
    const old = new Date(Date.now() - SWEEP_GRACE_MS - 60_000);
    const objects = Array.from({ length: 2500 }, (_, i) => ({
      Key: `p/objects/key_${String(i).padStart(5, "0")}`,
      LastModified: old,
    }));
    const uploads = [
      { Key: "p/tmp/a/stale", UploadId: "u1", Initiated: old },
      { Key: "p/tmp/a/young", UploadId: "u2", Initiated: new Date() },
      // Began long ago but its last part is fresh: a slow upload still going, left alone.
      { Key: "p/tmp/a/alive", UploadId: "u3", Initiated: old },
    ];
    const sent: string[] = [];
    const fakeClient = {
      async send(command: { constructor: { name: string }; input: Record<string, unknown> }) {
        const { name } = command.constructor;
        const input = command.input;
        sent.push(name);
        if (name === "ListObjectsV2Command") {
          const all = objects.filter((o) => o.Key.startsWith(input.Prefix as string));
          const start = input.ContinuationToken ? Number(input.ContinuationToken) : 0;
          const page = all.slice(start, start + 1000);
          const truncated = start + 1000 < all.length;
          return {
            Contents: page,
            IsTruncated: truncated,
            NextContinuationToken: truncated ? String(start + 1000) : undefined,
          };
        }
        if (name === "ListMultipartUploadsCommand") {
          // Two pages of one upload each.
          const first = input.KeyMarker === undefined;
          return first
            ? { Uploads: [uploads[0]], IsTruncated: true, NextKeyMarker: uploads[0].Key, NextUploadIdMarker: "u1" }
            : { Uploads: [uploads[1], uploads[2]], IsTruncated: false };
        }
        if (name === "ListPartsCommand") {
          const newest = input.UploadId === "u3" ? new Date() : old;
          return {
            Parts: [
              { PartNumber: 1, LastModified: old },
              { PartNumber: 2, LastModified: newest },
            ],
            IsTruncated: false,
          };
        }
        if (name === "AbortMultipartUploadCommand") {
          expect(input).toMatchObject({ Key: "p/tmp/a/stale", UploadId: "u1" });
          return {};
        }
        if (name === "DeleteObjectCommand") return {};
        throw new Error(`unexpected ${name}`);
      },
    };
    const store = createS3Store({ bucket: BUCKET, prefix: "p", client: fakeClient as unknown as S3Client });
    const batches: number[] = [];
    const result = await store.sweep(async (batch) => {
      batches.push(batch.length);
      return new Set(batch.slice(0, 100));
    });
    expect(batches).toEqual([500, 500, 500, 500, 500]);
    expect(sent.filter((name) => name === "ListObjectsV2Command")).toHaveLength(1 + 3); // tmp/, then objects/ in 3 pages
    expect(result).toEqual({ removedFiles: 2500 - 5 * 100, removedTemporary: 1 });
  });
});

describe("S3 store: a 200 MB upload", () => {
  it("streams through with memory flat, then serves a range near its end", async () => {
    const store = storeFor("large");
    const total = 200 * MiB;
    // Warm up first (the SDK loads parts of itself on first use, in this process as s3rver does), so
    // the figure is the upload's own growth: a 24 MiB multipart upload, discarded.
    await store.discard(await store.stage(generated(24 * MiB), { maxBytes: 2048 * MiB, inspect: sniffVideo }));
    let peak = process.memoryUsage.rss();
    const before = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
    const started = performance.now();
    let staged;
    try {
      staged = await store.stage(generated(total), { maxBytes: 2048 * MiB, inspect: sniffVideo });
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    const grewMiB = (peak - before) / MiB;
    console.info(
      `[s3-store] 200 MiB staged in ${seconds.toFixed(1)} s; RSS ${Math.round(before / MiB)} MiB -> peak ${Math.round(peak / MiB)} MiB (+${grewMiB.toFixed(0)} MiB)`,
    );
    expect(staged).toMatchObject({ size: total, contentType: "video/mp4" });
    expect(grewMiB).toBeLessThan(120);

    await store.commit(staged, "large_video");
    expect((await store.stat("large_video"))?.size).toBe(total);
    // 100 bytes either side of the boundary between the last two chunks (198 and 199).
    const boundary = 199 * MiB;
    const range = await readAll(store.open("large_video", { start: boundary - 100, end: boundary + 99 }));
    expect(range.length).toBe(200);
    expect(range.subarray(0, 100).every((b) => b === 198 % 251)).toBe(true);
    expect(range.subarray(100).every((b) => b === 199 % 251)).toBe(true);

    // A reader that goes away early (a seek, a closed tab) ends the transfer without an error.
    const whole = store.open("large_video");
    const first = await new Promise<Buffer>((resolve) => whole.once("data", resolve));
    expect(first[0]).toBe(0);
    whole.destroy();
    await new Promise((resolve) => whole.once("close", resolve));

    await store.remove("large_video");
    expect(await keysUnder("large/")).toEqual([]);
  }, 120_000);
});

describe("parseStorageUrl", () => {
  const dataDir = "/srv/studio-data";

  it("defaults to files under DATA_DIR/media", () => {
    expect(parseStorageUrl(undefined, dataDir)).toEqual({ kind: "file", root: "/srv/studio-data/media" });
    expect(parseStorageUrl("", dataDir)).toEqual({ kind: "file", root: "/srv/studio-data/media" });
    expect(parseStorageUrl("file://", dataDir)).toEqual({ kind: "file", root: "/srv/studio-data/media" });
  });

  it("takes an absolute folder", () => {
    expect(parseStorageUrl("file:///var/lib/studio/media/", dataDir)).toEqual({
      kind: "file",
      root: "/var/lib/studio/media",
    });
    expect(parseStorageUrl("file:///mnt/my%20disk", dataDir)).toEqual({ kind: "file", root: "/mnt/my disk" });
  });

  it("reads an s3 URL with its parameters", () => {
    expect(
      parseStorageUrl(
        "s3://studio-media?endpoint=http://127.0.0.1:9000&region=us-east-1&force_path_style=true&prefix=/prod/media/",
        dataDir,
      ),
    ).toEqual({
      kind: "s3",
      bucket: "studio-media",
      prefix: "prod/media/",
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      forcePathStyle: true,
    });
    expect(parseStorageUrl("s3://my.bucket", dataDir)).toEqual({
      kind: "s3",
      bucket: "my.bucket",
      prefix: "",
      endpoint: undefined,
      region: undefined,
      forcePathStyle: false,
    });
    // An endpoint with its own query string must be encoded; an encoded one round-trips.
    expect(
      parseStorageUrl("s3://bucket-1?endpoint=https%3A%2F%2Facc.r2.cloudflarestorage.com&region=auto", dataDir),
    ).toMatchObject({
      endpoint: "https://acc.r2.cloudflarestorage.com",
      region: "auto",
    });
  });

  it.each([
    ["not a url", /not a URL/],
    ["http://example.com/bucket", /unsupported scheme "http:"/],
    ["file://relative/path", /absolute path with three slashes/],
    ["file:///x?y=1", /no parameters/],
    ["s3://", /bucket is missing/],
    ["s3://My_Bucket", /not a valid bucket name/],
    ["s3://key:secret@bucket", /AWS_ACCESS_KEY_ID/],
    ["s3://bucket/some/folder", /use \?prefix=some\/folder/],
    ["s3://bucket:9000", /port belongs in endpoint/],
    ["s3://bucket?forcePathStyle=true", /unknown parameter "forcePathStyle"/],
    ["s3://bucket?force_path_style=yes", /force_path_style must be true or false/],
    ["s3://bucket?endpoint=127.0.0.1:9000", /is not a URL \(e\.g\. endpoint=http:\/\/127/],
    ["s3://bucket?endpoint=ftp://host", /endpoint must start with http/],
    ["s3://bucket?endpoint=nope", /is not a URL/],
    ["s3://bucket?region=us-east-1&region=eu-west-1", /given twice/],
    ["s3://bucket?prefix=a/../b", /prefix may not contain/],
  ])("refuses %s", (url, message) => {
    expect(() => parseStorageUrl(url, dataDir)).toThrow(message);
  });
});
