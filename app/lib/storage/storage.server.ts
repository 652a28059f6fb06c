import os from "node:os";
import { Transform, type Readable } from "node:stream";
import { createDiskStore } from "./disk-store.server";
import { env, SettingsError, type Settings } from "~/lib/settings/env.server";
import { SNIFF_BYTES } from "./file-signatures";
import { parseStorageUrl, type StorageConfig } from "./storage-url.server";
import { openSpan, withSpan } from "~/lib/observe/trace.server";

/**
 * The one place user files live (DESIGN.md "Data and files"). Files are stored under a key (the
 * media row's random id), never under a name a person chose; names live in the database. Writing
 * is two steps so a file is either complete or absent: `stage` streams into a temporary file while
 * counting bytes and checking the first bytes, `commit` renames it into place. `sweep` removes what
 * a crash can leave: files without a row and stale temporary files.
 *
 * FileStore is an interface: the disk (disk-store.server.ts) or an S3-compatible bucket
 * (s3-store.server.ts), as STORAGE_URL says (read by storage-url.server.ts). This module holds the
 * interface, what both stores share (the byte counter and sniffer, the key and instance id rules, the
 * sweep's grace period) and the choice: `openFileStore()` (called by startApp, before the server
 * listens) picks the store, checks that it can be reached and clears this instance's own temporary
 * folder; nothing happens on import.
 *
 * Temporary files live in a folder per instance, `tmp/<instance id>/` (INSTANCE_ID, else
 * `<host name>-<port>`, so an instance restarted on its port finds its own folder): at start the
 * instance clears its folder (nothing of its own can be in flight then; a crash loop cannot fill the
 * disk), while other instances' folders are left to the sweep's grace period (their uploads may be in
 * flight).
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
  /**
   * Told the bytes staged so far after each chunk, before the chunk is written: a promise holds the
   * stream until it settles (a rejection refuses the file with its error); undefined goes on at once.
   * The storage quota's reservation (app/models/media/storage-quota.server.ts) grows through it.
   */
  reserve?: (size: number) => Promise<void> | undefined;
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
  /**
   * The bytes of a stored file read into `buffer` (the caller's, reused), one piece at a time: each
   * piece is a view of `buffer`, valid only until the next is asked for. No new buffer per read
   * (the exports; docs/decisions/0078). A store that cannot read into a buffer (S3) answers `open`'s stream.
   */
  readInto?(key: string, buffer: Buffer): AsyncIterable<Buffer> | Readable;
  remove(key: string): Promise<void>;
  /** Removes stored files that `known` does not claim and temporary files, both older than `graceMs`. */
  sweep(
    known: (keys: string[]) => Promise<Set<string>>,
    options?: { graceMs?: number; now?: number },
  ): Promise<SweepResult>;
  /**
   * Removes every temporary file of this instance (its own `tmp/<instance id>/` folder): called at
   * start, before any upload, when nothing of ours can be in flight. Returns how many were removed.
   * Fails when the store cannot be reached (so a bad STORAGE_URL stops the start).
   */
  clearTemporary(): Promise<number>;
  /** Releases connections (the S3 client); the store is not used afterwards. */
  close?(): void;
  /** Rejects when the store cannot be reached now (GET /api/health); `signal` gives up on it. */
  probe?(signal?: AbortSignal): Promise<void>;
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

// Keys are our own random ids; anything else is refused before it comes near a path or a bucket.
export const KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
export function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

/** Staging transform: counts bytes against the limit and checks the head before much is written. */
export function createInspector({ maxBytes, inspect, reserve }: StageOptions) {
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
      const reserving = reserve?.(size);
      if (reserving) return void reserving.then(() => callback(null, chunk), callback);
      callback(null, chunk);
    },
    flush(callback) {
      callback(contentType === null ? judge() : null);
    },
  });
  return { transform, result: () => ({ size, contentType: contentType! }) };
}

/** What names an instance's temporary folder: letters, digits, `_` and `-`, at most 64. */
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export function checkInstanceId(instanceId: string): string {
  if (!INSTANCE_ID_PATTERN.test(instanceId)) throw new Error(`Invalid instance id: ${JSON.stringify(instanceId)}`);
  return instanceId;
}

/**
 * This instance's id: INSTANCE_ID, else `<host name>-<port>` (the host name with anything but
 * letters, digits, `_` and `-` turned into `-`), so an instance restarted on its port finds its own
 * temporary folder. PORT=0 (a free port, tests) is not known before listening and two such instances
 * would share `<host>-0`: they get `<host>-pid<pid>` instead.
 */
export function instanceIdFor(settings: Pick<Settings, "instanceId" | "port">, hostname = os.hostname()): string {
  if (settings.instanceId) return settings.instanceId;
  const host =
    hostname
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "host";
  return settings.port === 0 ? `${host}-pid${process.pid}` : `${host}-${settings.port}`;
}

let opened: FileStore | null = null;
let openedConfig: StorageConfig | null = null;

const START_CHECK_TIMEOUT_MS = 30_000;

/**
 * Opens the store STORAGE_URL names (called by startApp before the server listens): a bad URL, or a
 * store that cannot be reached (missing bucket, wrong credentials, nothing at the endpoint), throws a
 * SettingsError naming STORAGE_URL, which stops the start with that message. Clears this instance's
 * temporary folder. Calling it again while open returns the open store.
 */
export async function openFileStore(settings: Settings = env): Promise<FileStore> {
  if (opened) return opened;
  let config: StorageConfig;
  try {
    config = parseStorageUrl(settings.storageUrl, settings.dataDir);
  } catch (error) {
    throw new SettingsError([(error as Error).message]);
  }
  const instanceId = instanceIdFor(settings);
  if (!INSTANCE_ID_PATTERN.test(instanceId)) {
    throw new SettingsError([`INSTANCE_ID must be 1-64 letters, digits, "_" or "-", got "${instanceId}"`]);
  }
  let store: FileStore;
  if (config.kind === "file") {
    store = createDiskStore(config.root, { instanceId });
  } else {
    // Loaded only when used: the AWS SDK stays out of a server on the disk store.
    const { createS3Store } = await import("./s3-store.server");
    store = createS3Store({ ...config, instanceId });
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${START_CHECK_TIMEOUT_MS / 1000} s`)),
        START_CHECK_TIMEOUT_MS,
      );
    });
    const removed = await Promise.race([store.clearTemporary(), timeout]);
    if (removed > 0)
      console.log(`[storage] removed ${removed} temporary file(s) this instance (${instanceId}) left behind`);
  } catch (error) {
    store.close?.();
    const where = config.kind === "file" ? config.root : `s3://${config.bucket}/${config.prefix}`;
    const reason =
      (error as { name?: string; message?: string }).message || (error as { name?: string }).name || String(error);
    throw new SettingsError([`STORAGE_URL: the file store at ${where} cannot be used: ${reason}`]);
  } finally {
    clearTimeout(timer);
  }
  openedConfig = config;
  return (opened = store);
}

/** Closes the store opened by openFileStore (the server's stop); the next use opens it again. */
export function closeFileStore(): void {
  opened?.close?.();
  opened = null;
  openedConfig = null;
}

/** Where the open store keeps files (for logs and health): "file" or "s3", or null when not open. */
export function fileStoreKind(): StorageConfig["kind"] | null {
  return openedConfig?.kind ?? null;
}

/**
 * The open store. Before openFileStore (unit tests, tools that never start the server) the disk store
 * STORAGE_URL names is made on first use; an S3 store needs openFileStore (startApp) first.
 */
function currentStore(): FileStore {
  if (opened) return opened;
  const config = parseStorageUrl(env.storageUrl, env.dataDir);
  if (config.kind !== "file") {
    throw new Error(
      "STORAGE_URL names an S3 bucket, which is opened at start: call openFileStore() (startApp does) first",
    );
  }
  openedConfig = config;
  return (opened = createDiskStore(config.root, { instanceId: instanceIdFor(env) }));
}

/**
 * A `store {op}` span around a call to the store, when traces are on (docs/decisions/0089), inside a
 * request's or a job's span only: the health probes outside any make none.
 */
const storeSpan = <T>(op: string, call: () => Promise<T>): Promise<T> =>
  withSpan(`store ${op}`, { "studio.store.kind": openedConfig?.kind ?? "file" }, call, { childOnly: true });

/** A read's span lasts until its stream closes (read to the end, failed or given up). */
function openTraced(key: string, range?: { start: number; end: number }): Readable {
  const span = openSpan("store open", { "studio.store.kind": openedConfig?.kind ?? "file" });
  if (!span) return currentStore().open(key, range);
  try {
    const stream = currentStore().open(key, range);
    stream.once("close", () => {
      if (stream.errored) span.fail(stream.errored.name || "Error");
      span.end();
    });
    return stream;
  } catch (error) {
    span.fail((error as Error)?.name || "Error");
    span.end();
    throw error;
  }
}

/** Every user file of this instance, in the store STORAGE_URL names (default: DATA_DIR/media). */
export const fileStore: FileStore & Required<Pick<FileStore, "readInto">> = {
  stage: (source, options) => storeSpan("stage", () => currentStore().stage(source, options)),
  commit: (staged, key) => storeSpan("commit", () => currentStore().commit(staged, key)),
  discard: (staged) => currentStore().discard(staged),
  stat: (key) => storeSpan("stat", () => currentStore().stat(key)),
  open: openTraced,
  readInto: (key, buffer) => {
    const store = currentStore();
    return store.readInto ? store.readInto(key, buffer) : store.open(key);
  },
  remove: (key) => storeSpan("remove", () => currentStore().remove(key)),
  sweep: (known, options) => currentStore().sweep(known, options),
  clearTemporary: () => currentStore().clearTemporary(),
  probe: (signal) => storeSpan("probe", async () => currentStore().probe?.(signal)),
};
