import sharp from "sharp";
import { DomainError } from "~/lib/domain-error";
import type { FileStore } from "./storage.server";

/**
 * Small previews of stored images for the library's grid (decision 0022): WebP, at most 320 px on the
 * longer side, made with sharp on first request and kept in memory (a few hundred of ~10 KiB each),
 * keyed by the file's key and version so a changed file never shows an old picture. The browser
 * keeps them too (ETag, private max-age).
 *
 * Bounded, because a preview is the costliest thing a plain GET does (decoding a picture):
 * - one computation per file at a time: requests for a file whose preview is being made wait for
 *   that one and share it (they take no slot);
 * - a picture of more than THUMBNAIL_MAX_PIXELS (read from the PNG header, before any decoding) gets
 *   no preview: 422, and the grid shows a plain tile;
 * - each person makes at most THUMBNAIL_CONCURRENCY_PER_PERSON previews at once; further ones wait in
 *   a short queue (THUMBNAIL_QUEUE_PER_PERSON, about one library page of pictures) and beyond it are
 *   refused with 429 and Retry-After (decision 0041).
 */
export const THUMBNAIL_SIZE = 320;
const CACHE_ENTRIES = 300;
/** Originals larger than this are not decoded for a preview (the grid shows a plain tile instead). */
export const THUMBNAIL_SOURCE_MAX = 50 * 1024 * 1024;
/** Pictures of more pixels than this (about 5600 x 4200) are not decoded for a preview. */
export const THUMBNAIL_MAX_PIXELS = 24_000_000;
/** Previews one person's requests may be making at the same time. */
export const THUMBNAIL_CONCURRENCY_PER_PERSON = 2;
/** Previews of one person waiting for a slot; one more is refused with 429. */
export const THUMBNAIL_QUEUE_PER_PERSON = 40;
/** Seconds a refused request is told to wait (Retry-After). */
const RETRY_AFTER_SECONDS = 2;

/** How the answer came about (the route reports it in Server-Timing). */
export type ThumbnailSource = "cached" | "shared" | "computed";

const cache = new Map<string, Buffer>();
/** Previews being made, by cache key: a second request for the same file waits for this one. */
const inFlight = new Map<string, Promise<Buffer>>();

/** Per person: previews being made, and the requests waiting for a slot (first come, first served). */
const slots = new Map<string, { running: number; waiting: (() => void)[] }>();

async function acquireSlot(person: string): Promise<void> {
  const entry = slots.get(person) ?? { running: 0, waiting: [] };
  slots.set(person, entry);
  if (entry.running < THUMBNAIL_CONCURRENCY_PER_PERSON) {
    entry.running++;
    return;
  }
  if (entry.waiting.length >= THUMBNAIL_QUEUE_PER_PERSON) {
    throw new DomainError(429, "Too many previews at once: try again in a moment", {
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    });
  }
  // The releasing request hands its slot over: `running` stays as it is.
  await new Promise<void>((resolve) => entry.waiting.push(resolve));
}

function releaseSlot(person: string): void {
  const entry = slots.get(person);
  if (!entry) return;
  const next = entry.waiting.shift();
  if (next) return next();
  entry.running--;
  if (entry.running === 0) slots.delete(person);
}

async function readAll(store: FileStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of store.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Width and height from the PNG's IHDR chunk (bytes 16-23), read without the rest of the file. */
async function pngSize(store: FileStore, key: string): Promise<{ width: number; height: number } | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of store.open(key, { start: 0, end: 23 })) chunks.push(chunk as Buffer);
  const head = Buffer.concat(chunks);
  if (head.length < 24 || head.toString("latin1", 12, 16) !== "IHDR") return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

async function compute(store: FileStore, key: string): Promise<Buffer> {
  const size = await pngSize(store, key);
  if (size && size.width * size.height > THUMBNAIL_MAX_PIXELS) {
    const megapixels = Math.round((size.width * size.height) / 1e5) / 10;
    throw new DomainError(
      422,
      `No preview for this image: ${size.width}x${size.height} is ${megapixels} megapixels, more than the ${THUMBNAIL_MAX_PIXELS / 1e6} megapixels a preview is made from`,
    );
  }
  const original = await readAll(store, key);
  // The limit again for sharp: a header that lied is refused by the decoder too.
  return sharp(original, { limitInputPixels: THUMBNAIL_MAX_PIXELS })
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: 70 })
    .toBuffer();
}

/**
 * The thumbnail of the stored file `key` at `version` (e.g. its size and update time), made for
 * `person` (whose slots it takes). Throws DomainError 422 (too many pixels) or 429 (too many at
 * once); other errors mean the bytes do not decode.
 */
export async function thumbnailOf(
  store: FileStore,
  key: string,
  version: string,
  person: string,
): Promise<{ thumbnail: Buffer; source: ThumbnailSource }> {
  const cacheKey = `${key}:${version}`;
  const cached = cache.get(cacheKey);
  if (cached) {
    // Most recently used goes last (Map keeps insertion order).
    cache.delete(cacheKey);
    cache.set(cacheKey, cached);
    return { thumbnail: cached, source: "cached" };
  }
  const pending = inFlight.get(cacheKey);
  if (pending) return { thumbnail: await pending, source: "shared" };
  // Registered before the wait for a slot, so requests arriving meanwhile share this one.
  const made = (async () => {
    await acquireSlot(person);
    try {
      const thumbnail = await compute(store, key);
      cache.set(cacheKey, thumbnail);
      while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      return thumbnail;
    } finally {
      releaseSlot(person);
    }
  })();
  inFlight.set(cacheKey, made);
  try {
    return { thumbnail: await made, source: "computed" };
  } finally {
    inFlight.delete(cacheKey);
  }
}
