import { Readable } from "node:stream";
import { beforeAll, expect, it, vi } from "vitest";
import { db } from "~/lib/db/db.server";
import { env } from "~/lib/settings/env.server";
import { nowIso } from "~/lib/db/ids.server";
import { instanceIdFor } from "~/lib/storage/storage.server";
import { createContent, deleteContent, updateContent } from "~/models/content/content.server";
import { storageUsage } from "~/models/media/library-files.server";
import { storeMedia } from "~/models/media/media-commit.server";
import {
  pruneStaleReservations,
  QUOTA_EXCEEDED,
  RESERVATION_LIVE_MS,
  StorageHold,
  storageLeft,
  storageUse,
} from "~/models/media/storage-quota.server";
import { mp4Bytes } from "../support/media";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

// A 3 MiB quota, parsed with the settings (before the app's modules are imported).
vi.hoisted(() => {
  process.env.USER_STORAGE_QUOTA_MB = "3";
});

/**
 * The storage quota under races, on SQLite and PostgreSQL (decision 0037): uploads and generations hold
 * their bytes while they stream and are kept in one transaction with the check, so racing ones never
 * pass the quota together; text counts toward the same quota, and racing creates and saves cannot pass
 * it either. The PostgreSQL half runs as in tests/unit/db-concurrency.test.ts.
 */
const MiB = 1024 * 1024;
const QUOTA = 3 * MiB;
/** A valid MP4 of `size` bytes, as a stream of 64 KiB chunks (an upload arrives in pieces). */
function videoStream(size: number): Readable {
  const bytes = mp4Bytes(size - mp4Bytes(0).length);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 64 * 1024) chunks.push(bytes.subarray(at, at + 64 * 1024));
  return Readable.from(chunks);
}

const storedBytes = async (userId: string) => {
  const rows = await db.selectFrom("media_files").select("size").where("user_id", "=", userId).execute();
  return rows.reduce((sum, row) => sum + Number(row.size), 0);
};
const reservations = (userId: string) =>
  db.selectFrom("storage_reservations").selectAll().where("user_id", "=", userId).execute();
const person = (userId: string) =>
  db.selectFrom("users").select(["media_bytes", "text_bytes"]).where("id", "=", userId).executeTakeFirstOrThrow();

/** What every refusal must be: the quota's 413. */
function expectQuotaRefusals(outcomes: PromiseSettledResult<unknown>[]) {
  for (const outcome of outcomes)
    if (outcome.status === "rejected") expect(outcome.reason).toMatchObject({ status: 413, code: QUOTA_EXCEEDED });
}

const body = (characters: number, fill = "a") => fill.repeat(characters);

describeOnEachEngine("storage quota", () => {
  beforeAll(async () => {
    expect(env.storageQuotaBytes).toBe(QUOTA);
  });

  it("never lets 8 racing 0.9 MB videos pass a 3 MiB quota; the refused are 413 and hold nothing", async () => {
    const SIZE = 900_000;
    for (let round = 0; round < 4; round++) {
      const userId = await newUserId();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          storeMedia(userId, "video", videoStream(SIZE), `race ${i}.mp4`, null, { expectedBytes: SIZE }),
        ),
      );
      const kept = outcomes.filter((outcome) => outcome.status === "fulfilled");
      expectQuotaRefusals(outcomes);
      // Three fit (2.7 MB of 3.15 MB); a fourth would pass the quota.
      expect(kept).toHaveLength(3);
      expect(await storedBytes(userId)).toBe(3 * SIZE);
      expect(Number((await person(userId)).media_bytes)).toBe(3 * SIZE);
      expect(await reservations(userId)).toEqual([]);
    }
  });

  it("racing holds never reserve past the quota together, and what was refused can be had once released", async () => {
    const userId = await newUserId();
    const holds = Array.from({ length: 12 }, () => new StorageHold(userId));
    const outcomes = await Promise.allSettled(
      holds.map(async (hold, i) => {
        // Each grows as an upload does, 256 KiB at a time, to 0.5-1.6 MiB.
        const target = Math.round((0.5 + (i % 5) * 0.275) * MiB);
        for (let size = 256 * 1024; ; size = Math.min(target, size + 256 * 1024)) {
          await hold.cover(size);
          if (size >= target) return target;
        }
      }),
    );
    expectQuotaRefusals(outcomes);
    const covered = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    expect(covered.length).toBeGreaterThan(0);
    expect(covered.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(QUOTA);
    const held = (await reservations(userId)).reduce((sum, row) => sum + Number(row.bytes), 0);
    expect(held).toBeLessThanOrEqual(QUOTA);
    expect((await storageUse(userId)).reservedBytes).toBe(held);
    await Promise.all(holds.map((hold) => hold.release()));
    expect(await reservations(userId)).toEqual([]);
    expect(await storageLeft(userId)).toBe(QUOTA);
  });

  it("counts an upload in flight: a file cannot take the room a streaming one holds", async () => {
    const userId = await newUserId();
    const streaming = new StorageHold(userId);
    await streaming.cover(2 * MiB);
    await expect(storeMedia(userId, "video", videoStream(1.5 * MiB), "late.mp4")).rejects.toMatchObject({
      status: 413,
      code: QUOTA_EXCEEDED,
    });
    expect(await storedBytes(userId)).toBe(0);
    await streaming.release();
    await expect(storeMedia(userId, "video", videoStream(1.5 * MiB), "late.mp4")).resolves.toMatchObject({
      size: 1.5 * MiB,
    });
  });

  it("counts a reservation only while recent, and prunes stale ones and this instance's from before its start", async () => {
    const userId = await newUserId();
    const long = new Date(Date.now() - RESERVATION_LIVE_MS - 60_000).toISOString();
    const beforeStart = new Date(Date.now() - process.uptime() * 1000 - 1000).toISOString();
    const row = (id: string, instance: string, updatedAt: string) => ({
      id,
      user_id: userId,
      instance_id: instance,
      bytes: MiB,
      updated_at: updatedAt,
    });
    await db
      .insertInto("storage_reservations")
      .values([
        row("stale", "killed-instance", long),
        row("mine-before", instanceIdFor(env), beforeStart),
        row("live-other", "other-instance", nowIso()),
      ])
      .execute();
    // The stale one holds nothing; the two recent ones hold 2 MiB.
    expect((await storageUse(userId)).reservedBytes).toBe(2 * MiB);
    expect(await pruneStaleReservations()).toBe(2);
    expect((await reservations(userId)).map((r) => r.id)).toEqual(["live-other"]);
    await db.deleteFrom("storage_reservations").where("user_id", "=", userId).execute();
  });

  it("counts text: 42 items of 100,000 characters under 3 MiB are refused once full, and racing creates never pass it", async () => {
    const userId = await newUserId();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 42 }, (_, i) => createContent(userId, { title: `Item ${i}`, body: body(100_000) })),
    );
    expectQuotaRefusals(outcomes);
    const kept = outcomes.filter((outcome) => outcome.status === "fulfilled").length;
    const each = `Item 10`.length + 100_000;
    expect(kept).toBeGreaterThanOrEqual(Math.floor(QUOTA / each) - 1);
    expect(kept).toBeLessThan(42);
    const { text_bytes } = await person(userId);
    expect(Number(text_bytes)).toBeLessThanOrEqual(QUOTA);
    const rows = await db.selectFrom("content_items").select(["title", "body"]).where("user_id", "=", userId).execute();
    expect(rows).toHaveLength(kept);
    expect(rows.reduce((sum, r) => sum + Buffer.byteLength(r.title) + Buffer.byteLength(r.body), 0)).toBe(
      Number(text_bytes),
    );
  });

  it("counts text in UTF-8 bytes, kept by every write; racing saves that grow never pass the quota, shrinking ones always pass", async () => {
    const userId = await newUserId();
    // 2 MiB of files, then items of a few bytes that saves make larger.
    await storeMedia(userId, "video", videoStream(2 * MiB), "files.mp4");
    const items = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createContent(userId, { title: `T${i}`, body: "é" })),
    );
    const before = Number((await person(userId)).text_bytes);
    expect(before).toBe(items.reduce((sum, item) => sum + Buffer.byteLength(item.title) + 2, 0));
    // Ten saves of 100,000 two-byte characters (200 KB each, 2 MB in all) race for the last MiB.
    const outcomes = await Promise.allSettled(
      items.map((item) => updateContent(userId, item.id, { title: item.title, body: body(100_000, "é") })),
    );
    expectQuotaRefusals(outcomes);
    const saved = outcomes.filter((outcome) => outcome.status === "fulfilled").length;
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(10);
    const use = await storageUse(userId);
    expect(use.mediaBytes + use.textBytes).toBeLessThanOrEqual(QUOTA);
    const rows = await db
      .selectFrom("content_items")
      .select(["id", "title", "body"])
      .where("user_id", "=", userId)
      .execute();
    // The items' text and their history's versions (docs/decisions/0072) are what the person's text uses.
    const versions = await db
      .selectFrom("content_versions")
      .select(["title", "body"])
      .where("user_id", "=", userId)
      .execute();
    const textOf = (list: { title: string; body: string }[]) =>
      list.reduce((sum, r) => sum + Buffer.byteLength(r.title) + Buffer.byteLength(r.body), 0);
    expect(textOf(rows) + textOf(versions)).toBe(use.textBytes);
    // A refused save kept nothing of itself.
    expect(rows.filter((r) => r.body.length === 100_000)).toHaveLength(saved);
    // A save that does not grow the text passes even when full; a delete gives the room back.
    const full = rows.find((r) => r.body.length === 100_000)!;
    await expect(updateContent(userId, full.id, { title: full.title, body: "short" })).resolves.toMatchObject({
      ok: true,
    });
    expect(await deleteContent(userId, full.id)).toBe(true);
    const after = await storageUsage(userId);
    expect(after.textBytes).toBe(Number((await person(userId)).text_bytes));
    expect(after.usedBytes).toBe(2 * MiB + after.textBytes);
  });
});
