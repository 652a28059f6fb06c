import sharp from "sharp";
import type { FileStore } from "./storage.server";

/**
 * Small previews of stored images for the library's grid (issue 15): WebP, at most 320 px on the
 * longer side, made with sharp on first request and kept in memory (a few hundred of ~10 KiB each),
 * keyed by the file's key and version so a changed file never shows an old picture. The browser
 * keeps them too (ETag, private max-age).
 */
export const THUMBNAIL_SIZE = 320;
const CACHE_ENTRIES = 300;
/** Originals larger than this are not decoded for a preview (the grid shows a plain tile instead). */
export const THUMBNAIL_SOURCE_MAX = 50 * 1024 * 1024;

const cache = new Map<string, Buffer>();

async function readAll(store: FileStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of store.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The thumbnail of the stored file `key` at `version` (e.g. its size and update time). */
export async function thumbnailOf(store: FileStore, key: string, version: string): Promise<Buffer> {
  const cacheKey = `${key}:${version}`;
  const cached = cache.get(cacheKey);
  if (cached) {
    // Most recently used goes last (Map keeps insertion order).
    cache.delete(cacheKey);
    cache.set(cacheKey, cached);
    return cached;
  }
  const original = await readAll(store, key);
  const thumbnail = await sharp(original, { limitInputPixels: 64_000_000 })
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: 70 })
    .toBuffer();
  cache.set(cacheKey, thumbnail);
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return thumbnail;
}
