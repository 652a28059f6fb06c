import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings, SettingsError } from "~/lib/settings/env.server";
import { sniffVideo } from "~/lib/storage/file-signatures";
import { createS3Store } from "~/lib/storage/s3-store.server";
import { closeFileStore, instanceIdFor, openFileStore, type FileStore } from "~/lib/storage/storage.server";
import { createDiskStore } from "~/lib/storage/disk-store.server";
import { mp4Bytes } from "../support/media";
import { startS3rver, type S3TestServer } from "../support/s3";

/**
 * Each instance keeps its temporary upload files in a folder of its own (`tmp/<instance id>/`) and
 * clears it at start; other instances' folders are left to the sweep's grace period.
 */
const video = { maxBytes: 10_000_000, inspect: sniffVideo };
const stage = (store: FileStore) => store.stage(Readable.from([mp4Bytes(50_000)]), video);
const tempRoot = () => fs.mkdtempSync(path.join(os.tmpdir(), "studio-instances-"));

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe("instance id", () => {
  it("is INSTANCE_ID, else <host name>-<port>; a free port (0) gets the process id instead", () => {
    expect(instanceIdFor({ instanceId: "web-1", port: 3000 })).toBe("web-1");
    expect(instanceIdFor({ instanceId: null, port: 3001 }, "app.example.com")).toBe("app-example-com-3001");
    expect(instanceIdFor({ instanceId: null, port: 0 }, "box")).toBe(`box-pid${process.pid}`);
    expect(instanceIdFor(parseSettings({ PORT: "4100" }), "box")).toBe("box-4100");
  });
});

describe("disk store: per-instance temporary folders", () => {
  it("a restart with the same instance id clears its own folder; another instance's file stays", async () => {
    const root = tempRoot();
    const mine = createDiskStore(root, { instanceId: "host-3000" });
    const other = createDiskStore(root, { instanceId: "host-3001" });
    const a = await stage(mine);
    const b = await stage(other);
    expect(path.relative(root, a.tempPath)).toMatch(/^tmp\/host-3000\/[0-9a-f-]{36}\.part$/);
    expect(path.relative(root, b.tempPath)).toMatch(/^tmp\/host-3001\//);

    // kill -9, then the same instance starts again: its leftovers go at once.
    const restarted = createDiskStore(root, { instanceId: "host-3000" });
    expect(await restarted.clearTemporary()).toBe(1);
    expect(fs.existsSync(a.tempPath)).toBe(false);
    expect(fs.existsSync(b.tempPath)).toBe(true);

    // The other instance's file is left to the sweep's grace period.
    const nothingKnown = async () => new Set<string>();
    expect(await restarted.sweep(nothingKnown, { graceMs: 60_000 })).toEqual({ removedFiles: 0, removedTemporary: 0 });
    expect(await restarted.sweep(nothingKnown, { graceMs: 60_000, now: Date.now() + 120_000 })).toEqual({
      removedFiles: 0,
      removedTemporary: 1,
    });
    expect(filesUnder(path.join(root, "tmp"))).toEqual([]);
    // The other instance's empty, old folder went too; staging there makes it again.
    expect(fs.existsSync(path.join(root, "tmp", "host-3001"))).toBe(false);
    const again = await stage(other);
    await other.commit(again, "again-000001");
    expect(await other.stat("again-000001")).not.toBeNull();
  });
});

describe("opening the store at start", () => {
  it("clears this instance's folder, and refuses a bad STORAGE_URL or INSTANCE_ID with a SettingsError", async () => {
    const dataDir = tempRoot();
    const settings = parseSettings({ DATA_DIR: dataDir, INSTANCE_ID: "web-1" });
    const left = path.join(dataDir, "media", "tmp", "web-1", "crashed.part");
    const others = path.join(dataDir, "media", "tmp", "web-2", "in-flight.part");
    for (const file of [left, others]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, "half an upload");
    }
    closeFileStore();
    try {
      await openFileStore(settings);
      expect(fs.existsSync(left)).toBe(false);
      expect(fs.existsSync(others)).toBe(true);
    } finally {
      closeFileStore();
    }
    for (const [variables, message] of [
      [{ STORAGE_URL: "ftp://example.com/x" }, "STORAGE_URL"],
      [{ STORAGE_URL: "s3://Bad_Bucket" }, "not a valid bucket name"],
      [{ INSTANCE_ID: "../x" }, "INSTANCE_ID"],
      // Nothing listens there: the start stops with the store's problem, not the first upload.
      [
        { STORAGE_URL: "s3://studio-media?endpoint=http://127.0.0.1:9&region=us-east-1&force_path_style=true" },
        "cannot be used",
      ],
    ] as const) {
      const attempt = openFileStore(
        parseSettings({ DATA_DIR: dataDir, AWS_ACCESS_KEY_ID: "x", AWS_SECRET_ACCESS_KEY: "y", ...variables }),
      );
      await expect(attempt).rejects.toBeInstanceOf(SettingsError);
      await expect(attempt).rejects.toThrow(message);
      closeFileStore();
    }
  });
});

describe("S3 store: per-instance temporary folders", () => {
  const BUCKET = "instances";
  let s3: S3TestServer;
  let endpoint: string;
  let client: S3Client;

  beforeAll(async () => {
    s3 = await startS3rver(BUCKET);
    ({ endpoint, client } = s3);
  });
  afterAll(async () => {
    await s3?.stop();
  });

  const storeFor = (instanceId: string) =>
    createS3Store({
      bucket: BUCKET,
      prefix: "p",
      endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      instanceId,
      client,
    });
  const keys = async () =>
    ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "p/tmp/" }))).Contents ?? [])
      .map((o) => o.Key!)
      .sort();

  it("a restart with the same instance id clears its own temporary objects; another instance's stay", async () => {
    const a = await stage(storeFor("host-3000"));
    const b = await stage(storeFor("host-3001"));
    expect(a.tempPath).toMatch(/^p\/tmp\/host-3000\//);
    expect(await keys()).toEqual([a.tempPath, b.tempPath].sort());
    expect(await storeFor("host-3000").clearTemporary()).toBe(1);
    expect(await keys()).toEqual([b.tempPath]);
  });
});
