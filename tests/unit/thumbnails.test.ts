import { Readable } from "node:stream";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { DomainError } from "~/lib/domain-error";
import type { FileStore } from "~/lib/storage/storage.server";
import {
  THUMBNAIL_CONCURRENCY_PER_PERSON,
  THUMBNAIL_MAX_PIXELS,
  THUMBNAIL_QUEUE_PER_PERSON,
  thumbnailOf,
} from "~/lib/storage/thumbnails.server";

/**
 * Previews are bounded: one computation per file at a time (concurrent requests share it), no decoding
 * of pictures above THUMBNAIL_MAX_PIXELS (422 from the header alone), and per person at most
 * THUMBNAIL_CONCURRENCY_PER_PERSON at once with a short queue, then 429 with Retry-After.
 */
function memoryStore(files: Record<string, Buffer>) {
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const stats = { fullReads: 0, active: 0, mostActive: 0, headerReads: 0 };
  const store = {
    open(key: string, range?: { start: number; end: number }) {
      const bytes = files[key];
      if (range) {
        stats.headerReads++;
        return Readable.from([bytes.subarray(range.start, range.end + 1)]);
      }
      stats.fullReads++;
      return Readable.from(
        (async function* () {
          stats.active++;
          stats.mostActive = Math.max(stats.mostActive, stats.active);
          try {
            await gate;
            yield bytes;
          } finally {
            stats.active--;
          }
        })(),
      );
    },
  } as unknown as FileStore;
  return {
    store,
    stats,
    /** Reads wait until `open()` is called. */
    hold() {
      gate = new Promise((resolve) => (release = resolve));
      return () => release();
    },
  };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#3a7" } })
    .png({ compressionLevel: 1 })
    .toBuffer();

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("thumbnails", () => {
  it("20 requests at once for one file make one preview; the others share it", async () => {
    const { store, stats, hold } = memoryStore({ photo1: await png(1200, 800) });
    const open = hold();
    const requests = Array.from({ length: 20 }, () => thumbnailOf(store, "photo1", "v1", "ana"));
    await settle();
    open();
    const answers = await Promise.all(requests);
    expect(stats.fullReads).toBe(1);
    expect(answers.filter((a) => a.source === "computed")).toHaveLength(1);
    expect(answers.filter((a) => a.source === "shared")).toHaveLength(19);
    expect(new Set(answers.map((a) => a.thumbnail))).toHaveProperty("size", 1);
    expect((await sharp(answers[0].thumbnail).metadata()).width).toBe(320);
    // Later: from memory.
    expect((await thumbnailOf(store, "photo1", "v1", "ana")).source).toBe("cached");
    expect(stats.fullReads).toBe(1);
  });

  it("does not decode a picture of more than the pixel limit: 422 from its header", async () => {
    expect(THUMBNAIL_MAX_PIXELS).toBeLessThanOrEqual(24_000_000);
    const { store, stats } = memoryStore({ huge: await png(5000, 5000), fine: await png(4000, 4000) });
    const error = await thumbnailOf(store, "huge", "v1", "ben").catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.status).toBe(422);
    expect(error.detail).toMatch(/5000x5000 is 25 megapixels, more than the 24/);
    expect(stats.fullReads).toBe(0);
    expect((await thumbnailOf(store, "fine", "v1", "ben")).source).toBe("computed");
  });

  it("one person makes at most 2 at once; a short queue waits; beyond it 429 with Retry-After; others go on", async () => {
    const tiny = await png(40, 30);
    const keys = Array.from(
      { length: THUMBNAIL_CONCURRENCY_PER_PERSON + THUMBNAIL_QUEUE_PER_PERSON + 1 },
      (_, i) => `many-${i}`,
    );
    const { store, stats, hold } = memoryStore(Object.fromEntries([...keys, "other"].map((key) => [key, tiny])));
    const open = hold();
    const queued = keys.slice(0, -1).map((key) => thumbnailOf(store, key, "v1", "cleo"));
    await settle();
    expect(stats.active).toBe(THUMBNAIL_CONCURRENCY_PER_PERSON);

    const refused = await thumbnailOf(store, keys.at(-1)!, "v1", "cleo").catch((e) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused.status).toBe(429);
    expect(refused.options.headers).toEqual({ "Retry-After": "2" });

    // Another person is not held up by cleo's queue.
    const other = thumbnailOf(store, "other", "v1", "dan");
    await settle();
    expect(stats.active).toBe(THUMBNAIL_CONCURRENCY_PER_PERSON + 1);

    open();
    const answers = await Promise.all(queued);
    expect(answers.every((a) => a.source === "computed")).toBe(true);
    expect((await other).source).toBe("computed");
    expect(stats.mostActive).toBe(THUMBNAIL_CONCURRENCY_PER_PERSON + 1);
    // The slots are free again.
    expect((await thumbnailOf(store, keys.at(-1)!, "v1", "cleo")).source).toBe("computed");
  });
});
