import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import {
  checkInstanceId,
  checkKey,
  createInspector,
  KEY_PATTERN,
  SWEEP_GRACE_MS,
  type FileStore,
  type SweepResult,
} from "./storage.server";

/**
 * The FileStore on local disk (STORAGE_URL empty, `file://` or `file:///absolute/path`; the default
 * is `$DATA_DIR/media`), chosen by storage.server.ts, whose interface and shared rules it follows.
 * Layout under the root: `objects/<first 2 chars of the key>/<key>` for stored files and
 * `tmp/<instance id>/<random>.part` while a file is staged. A commit is a rename on one filesystem,
 * so readers see a whole file or none.
 *
 * storage.server.ts imports this module for its choice and this one imports the interface's rules
 * from it: each uses the other only inside functions, so either may be loaded first.
 */
export interface DiskStoreOptions {
  /** Names this instance's folder of temporary files, `tmp/<instanceId>/`; default: a random id per store. */
  instanceId?: string;
}

/** Files on local disk under `root`: objects/<2 chars>/<key> and tmp/<instance id>/<random>.part. */
export function createDiskStore(root: string, options: DiskStoreOptions = {}): FileStore {
  const objectsDir = path.join(root, "objects");
  const tmpRoot = path.join(root, "tmp");
  const instanceId = checkInstanceId(options.instanceId ?? randomUUID().slice(0, 8));
  const tmpDir = path.join(tmpRoot, instanceId);
  const objectPath = (key: string) => path.join(objectsDir, checkKey(key).slice(0, 2), key);

  const list = async (dir: string) => (await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) as fs.Dirent[];

  async function removeQuietly(file: string) {
    await fsp.rm(file, { force: true }).catch((error) => console.error(`[storage] could not remove ${file}`, error));
  }

  return {
    async stage(source, options) {
      // The source may fail while the file is being opened; pipeline() then sees it already errored.
      source.on("error", () => {});
      const tempPath = path.join(tmpDir, `${randomUUID()}.part`);
      const inspector = createInspector(options);
      // Opened before any byte flows, so a refusal cannot race the file's creation (and leave it behind).
      // Another instance's sweep may remove our folder while it is empty and old: make it again then.
      const openTemp = async () => {
        // Folders 0700, files 0600: people's files are nobody else's on this machine (decision 0052).
        await fsp.mkdir(tmpDir, { recursive: true, mode: 0o700 });
        return fsp.open(tempPath, "wx", 0o600);
      };
      const handle = await openTemp().catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return openTemp();
        throw error;
      });
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
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
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

    async *readInto(key, buffer) {
      const handle = await fsp.open(objectPath(key), "r");
      try {
        for (;;) {
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
          if (bytesRead === 0) return;
          yield buffer.subarray(0, bytesRead);
        }
      } finally {
        await handle.close();
      }
    },

    async probe() {
      // The folder is there (made on first use, as staging does) and writable (a network mount gone
      // away, a disk remounted read-only).
      await fsp.mkdir(root, { recursive: true });
      await fsp.access(root, fs.constants.W_OK);
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
      // Temporary files: each instance's folder (and loose files of the layout before per-instance
      // folders). A file in flight is written to at least every 60 s (a stalled upload is dropped), so
      // its modification time keeps it young. Another instance's folder left empty and old goes too.
      const removeStaleIn = async (dir: string) => {
        for (const entry of await list(dir)) {
          const file = path.join(dir, entry.name);
          if (entry.isFile() && (await isStale(file))) {
            await removeQuietly(file);
            result.removedTemporary++;
          }
        }
      };
      await removeStaleIn(tmpRoot);
      for (const entry of await list(tmpRoot)) {
        if (!entry.isDirectory()) continue;
        const dir = path.join(tmpRoot, entry.name);
        await removeStaleIn(dir);
        if (dir !== tmpDir && (await isStale(dir))) await fsp.rmdir(dir).catch(() => {}); // only when empty
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

    async clearTemporary() {
      let removed = 0;
      for (const entry of await list(tmpDir)) {
        await fsp.rm(path.join(tmpDir, entry.name), { recursive: true, force: true });
        removed++;
      }
      return removed;
    },
  };
}
