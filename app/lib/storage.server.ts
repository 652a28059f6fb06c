import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { env } from "./env.server";
import { SNIFF_BYTES } from "./file-signatures";

/**
 * The one place user files live (DESIGN.md "Data and files"). Files are stored under a key (the
 * media row's random id), never under a name a person chose; names live in the database. Writing
 * is two steps so a file is either complete or absent: `stage` streams into a temporary file while
 * counting bytes and checking the first bytes, `commit` renames it into place. `sweep` removes what
 * a crash can leave: files without a row and stale temporary files.
 *
 * FileStore is an interface so that an S3-compatible store can replace the disk later.
 */
export interface StagedFile {
  readonly tempPath: string;
  readonly size: number;
  /** What the first bytes say the file is (the Content-Type it will be served with). */
  readonly contentType: string;
}

export interface StageOptions {
  maxBytes: number;
  /** Judges the first bytes (up to SNIFF_BYTES): a Content-Type, or null to refuse the file. */
  inspect: (head: Uint8Array) => string | null;
}

export interface StoredFileInfo {
  size: number;
  modified: Date;
}

export interface SweepResult {
  removedFiles: number;
  removedTemporary: number;
}

export interface FileStore {
  stage(source: Readable, options: StageOptions): Promise<StagedFile>;
  commit(staged: StagedFile, key: string): Promise<void>;
  discard(staged: StagedFile): Promise<void>;
  stat(key: string): Promise<StoredFileInfo | null>;
  /** The bytes of a stored file, optionally only `start`..`end` (inclusive). */
  open(key: string, range?: { start: number; end: number }): Readable;
  remove(key: string): Promise<void>;
  /** Removes stored files that `known` does not claim and temporary files, both older than `graceMs`. */
  sweep(known: (keys: string[]) => Promise<Set<string>>, options?: { graceMs?: number; now?: number }): Promise<SweepResult>;
}

/** The file is larger than the limit: nothing was kept. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${maxBytes} bytes`);
  }
}

/** The first bytes are not what was expected (or the file is empty): nothing was kept. */
export class UnsupportedContentError extends Error {
  constructor(readonly empty = false) {
    super(empty ? "File is empty" : "File content is not of an accepted type");
  }
}

/** How old an unclaimed or temporary file must be before a sweep removes it (an upload may be in flight). */
export const SWEEP_GRACE_MS = 15 * 60_000;

// Keys are our own random ids; anything else is refused before it comes near a path.
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

/** Staging transform: counts bytes against the limit and checks the head before much is written. */
export function createInspector({ maxBytes, inspect }: StageOptions) {
  let size = 0;
  let head: Buffer = Buffer.alloc(0);
  let contentType: string | null = null;
  const judge = () => {
    contentType = inspect(head);
    return contentType === null ? new UnsupportedContentError(size === 0) : null;
  };
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) return callback(new FileTooLargeError(maxBytes));
      if (contentType === null) {
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
        if (head.length >= SNIFF_BYTES) {
          const error = judge();
          if (error) return callback(error);
        }
      }
      callback(null, chunk);
    },
    flush(callback) {
      callback(contentType === null ? judge() : null);
    },
  });
  return { transform, result: () => ({ size, contentType: contentType! }) };
}

/** Files on local disk under `root`: objects/<2 chars>/<key> and tmp/<random>.part. */
export function createDiskStore(root: string): FileStore {
  const objectsDir = path.join(root, "objects");
  const tmpDir = path.join(root, "tmp");
  const objectPath = (key: string) => path.join(objectsDir, checkKey(key).slice(0, 2), key);

  async function removeQuietly(file: string) {
    await fsp.rm(file, { force: true }).catch((error) => console.error(`[storage] could not remove ${file}`, error));
  }

  return {
    async stage(source, options) {
      // The source may fail while the file is being opened; pipeline() then sees it already errored.
      source.on("error", () => {});
      await fsp.mkdir(tmpDir, { recursive: true });
      const tempPath = path.join(tmpDir, `${randomUUID()}.part`);
      const inspector = createInspector(options);
      // Opened before any byte flows, so a refusal cannot race the file's creation (and leave it behind).
      const handle = await fsp.open(tempPath, "wx", 0o600);
      try {
        // Larger write batches than the 16 KiB default: fewer write calls for big media.
        await pipeline(source, inspector.transform, handle.createWriteStream({ highWaterMark: 1024 * 1024 }));
      } catch (error) {
        await handle.close().catch(() => {});
        await removeQuietly(tempPath);
        throw error;
      }
      return { tempPath, ...inspector.result() };
    },

    async commit(staged, key) {
      const target = objectPath(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      // Same filesystem, so the rename is atomic: readers see the whole file or none.
      await fsp.rename(staged.tempPath, target);
    },

    async discard(staged) {
      await removeQuietly(staged.tempPath);
    },

    async stat(key) {
      try {
        const info = await fsp.stat(objectPath(key));
        return info.isFile() ? { size: info.size, modified: info.mtime } : null;
      } catch {
        return null;
      }
    },

    open(key, range) {
      return fs.createReadStream(objectPath(key), range ? { start: range.start, end: range.end } : {});
    },

    async remove(key) {
      await removeQuietly(objectPath(key));
    },

    async sweep(known, { graceMs = SWEEP_GRACE_MS, now = Date.now() } = {}) {
      const result: SweepResult = { removedFiles: 0, removedTemporary: 0 };
      const isStale = async (file: string) => {
        try {
          return now - (await fsp.stat(file)).mtimeMs > graceMs;
        } catch {
          return false;
        }
      };
      const list = async (dir: string) => (await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) as fs.Dirent[];

      for (const entry of await list(tmpDir)) {
        const file = path.join(tmpDir, entry.name);
        if (entry.isFile() && (await isStale(file))) {
          await removeQuietly(file);
          result.removedTemporary++;
        }
      }
      for (const shard of await list(objectsDir)) {
        if (!shard.isDirectory()) continue;
        const keys = (await list(path.join(objectsDir, shard.name))).filter((e) => e.isFile()).map((e) => e.name);
        // Ask in batches: a portable IN list stays well below every database's parameter limit.
        for (let i = 0; i < keys.length; i += 500) {
          const batch = keys.slice(i, i + 500);
          const claimed = await known(batch.filter((key) => KEY_PATTERN.test(key)));
          for (const key of batch) {
            const file = path.join(objectsDir, shard.name, key);
            if (!claimed.has(key) && (await isStale(file))) {
              await removeQuietly(file);
              result.removedFiles++;
            }
          }
        }
      }
      return result;
    },
  };
}

/** Every user file of this instance: DATA_DIR/media. */
export const fileStore: FileStore = createDiskStore(path.join(env.dataDir, "media"));
