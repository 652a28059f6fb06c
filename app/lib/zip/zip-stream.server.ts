import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createDeflateRaw, deflateRawSync } from "node:zlib";
import { ByteChunks } from "~/lib/storage/byte-chunks";
import {
  centralRecordSize,
  crc32,
  dataDescriptor,
  DEFLATED,
  endRecords,
  localHeaderSize,
  MIN_DEFLATE,
  STORED,
  writeCentralRecord,
  writeLocalHeader,
  type ZipRecord,
} from "./zip-format.server";
import { SharedDeflate } from "./zip-deflate.server";
import { OutputChunks, Scratch } from "./zip-output.server";
import type { LazyBufferEntry, MakeBytes, OpenBytes, ZipStream } from "./zip-types.server";

/**
 * Zip files written as they are sent (the exports; docs/decisions/0078). Entries are queued with what
 * makes their bytes, and each is made only when the zip reaches it, so however many entries an export
 * holds, one is in hand at a time:
 * - small entries (Markdown, JSON) are whole buffers: one CRC-32 and one deflateRawSync each, sizes
 *   in the local header; no stream per entry;
 * - files stream from the store with a data descriptor after them, deflated through one zlib stream
 *   per file when worth it, stored otherwise; one file is open at a time.
 * Bytes leave in writes of WRITE_SIZE (zip-output.server.ts: one fresh buffer per write, every
 * piece copied into it from buffers the writer reuses), and the writer waits whenever the reader's
 * buffer is full: backpressure runs from the client's socket (the front door waits for 'drain') back to the
 * database batch or the file being read. ZIP64 records are written when sizes, offsets or the count
 * outgrow the classic fields (zip-format.server.ts).
 *
 * A file whose bytes are gone when its turn comes (deleted meanwhile; disk ENOENT or S3 NoSuchKey,
 * which both stores report as ENOENT) becomes an empty entry and is listed by `missing()`, so the
 * export still completes; any other read error ends the stream with that error (the client sees a
 * broken download, not a zip that looks whole).
 *
 * Beside it: the writer's interface (zip-types.server.ts), the names inside a zip (zip-names.server.ts)
 * and the HTTP answer that sends one (zip-response.server.ts).
 */

type Entry = { path: string; compress: boolean; mtime: Date } & ({ make: MakeBytes } | { open: OpenBytes });

type Each = Iterator<LazyBufferEntry> | AsyncIterator<LazyBufferEntry>;

const OUTPUT_HIGH_WATER_MARK = 256 * 1024;
/** The zip leaves in writes this large (fewer, larger socket writes; the last one smaller). */
export const WRITE_SIZE = 64 * 1024;
/** A file's bytes are read into one buffer of this size, reused for every read of every file. */
const READ_SIZE = 64 * 1024;
/**
 * A small entry's deflated bytes are made in zlib output buffers this small: below Buffer's pool
 * threshold (4 KiB), so they are cut from shared 8 KiB slabs rather than a buffer of their own each.
 */
const DEFLATE_CHUNK = 4032;
const EMPTY = Buffer.alloc(0);

function lazyEntry({ path, options, make }: LazyBufferEntry): Entry {
  return { path, compress: options.compress ?? true, mtime: options.mtime ?? new Date(), make };
}

export function createZipStream(): ZipStream {
  const queue: Array<Entry | Each | undefined> = [];
  let head = 0;
  let ended = false;
  let running = false;
  let closed = false;
  let current: Readable | null = null;
  let wakeWriter: (() => void) | null = null;
  let wakeReader: (() => void) | null = null;
  const wakeTheReader = () => (wakeReader?.(), (wakeReader = null));
  const wakeTheWriter = () => (wakeWriter?.(), (wakeWriter = null));
  const missing: string[] = [];
  // The central directory is encoded as each entry is written and kept as bytes in a few large
  // buffers, not one record object per entry (docs/decisions/0078).
  const directory = new ByteChunks();
  let count = 0;
  let position = 0;
  // Names, headers, records, a small entry's text and a file's reads are encoded into these, kept for
  // the zip's life, rather than into new buffers per entry (docs/decisions/0078, "Memory").
  const names = new Scratch(1024);
  const records = new Scratch(1024);
  const texts = new Scratch(64 * 1024);
  let reads: Buffer | null = null;
  let deflater: SharedDeflate | null = null;
  const keep = (record: ZipRecord) => {
    const end = writeCentralRecord(record, records.atLeast(centralRecordSize(record)), 0);
    directory.append(records.atLeast(0).subarray(0, end));
    count++;
  };
  const out = new OutputChunks(WRITE_SIZE, hand);

  const output = new Readable({
    highWaterMark: OUTPUT_HIGH_WATER_MARK,
    read() {
      if (!running) {
        running = true;
        run().catch((error: Error) => output.destroy(error));
      }
      wakeTheReader();
    },
    // The client went away (the web stream was cancelled): stop reading the file in hand (an S3 request too).
    destroy(error, callback) {
      closed = true;
      current?.destroy();
      deflater?.close();
      wakeTheReader();
      wakeTheWriter();
      callback(error);
    },
  });

  async function hand(chunk: Buffer) {
    if (closed) return;
    if (!output.push(chunk)) await new Promise<void>((resolve) => (wakeReader = resolve));
    // Back to the event loop after each write: entries made from data already in hand (a batch of
    // bodies, better-sqlite3's synchronous reads) only ever await settled promises, and a loop of
    // microtasks would hold off the socket's writes (uncorked on the next tick), its 'drain' and
    // every other request until the output buffer fills (docs/decisions/0078).
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Copies `bytes` into the output (it may be reused as soon as this returns). */
  async function write(bytes: Uint8Array) {
    position += bytes.length;
    await out.write(bytes);
  }

  /** The entry's path as UTF-8, in the names' buffer (valid while this entry is written). */
  function nameOf(path: string): Uint8Array {
    const { buffer, length } = names.encode(path);
    return buffer.subarray(0, length);
  }

  async function writeHeader(record: ZipRecord) {
    const header = records.atLeast(localHeaderSize(record));
    await write(header.subarray(0, writeLocalHeader(record, header, 0)));
  }

  async function writeWhole(entry: Entry & { make: MakeBytes }) {
    const made = await entry.make();
    let raw: Buffer;
    if (Buffer.isBuffer(made)) raw = made;
    else {
      const { buffer, length } = texts.encode(made);
      raw = buffer.subarray(0, length);
    }
    let data: Uint8Array = raw;
    let method: ZipRecord["method"] = STORED;
    if (entry.compress && raw.length >= MIN_DEFLATE) {
      const deflated = await (deflater ??= new SharedDeflate()).deflate(raw, DEFLATE_CHUNK);
      // Entries that do not shrink (random bytes, a few words) are stored.
      if (deflated.length < raw.length) [data, method] = [deflated, DEFLATED];
    }
    const record: ZipRecord = {
      name: nameOf(entry.path),
      method,
      mtime: entry.mtime,
      crc: crc32(raw),
      compressedSize: data.length,
      size: raw.length,
      offset: position,
      descriptor: false,
    };
    await writeHeader(record);
    await write(data);
    keep(record);
  }

  async function writeStreamed(entry: Entry & { open: OpenBytes }) {
    const record: ZipRecord = {
      name: nameOf(entry.path),
      method: entry.compress ? DEFLATED : STORED,
      mtime: entry.mtime,
      crc: 0,
      compressedSize: 0,
      size: 0,
      offset: position,
      descriptor: true,
    };
    await writeHeader(record);
    let begun = false;
    // `copy`: the pieces are views of the zip's read buffer, which the deflate stream may still hold
    // after it was handed one (it keeps its input until it has compressed it).
    async function* counted(source: AsyncIterable<Uint8Array>, copy: boolean) {
      for await (const chunk of source) {
        begun = true;
        record.crc = crc32(chunk, record.crc);
        record.size += chunk.length;
        yield copy ? Buffer.from(chunk) : chunk;
      }
    }
    async function send(source: AsyncIterable<Uint8Array>) {
      for await (const chunk of source) {
        if (closed) return;
        record.compressedSize += chunk.length;
        await write(chunk);
      }
    }
    try {
      const source = await entry.open((reads ??= Buffer.allocUnsafeSlow(READ_SIZE)));
      const own = source instanceof Readable;
      if (own) current = source;
      if (closed) {
        if (own) source.destroy();
      } else if (entry.compress)
        await pipeline(source, (chunks: AsyncIterable<Uint8Array>) => counted(chunks, !own), createDeflateRaw(), send);
      else await send(counted(source, false));
    } catch (error) {
      if (closed) return;
      if (begun || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      // Missing before its first byte: an empty entry (an empty deflate stream when deflated).
      missing.push(entry.path);
      const empty = entry.compress ? deflateRawSync(EMPTY) : EMPTY;
      Object.assign(record, { crc: 0, size: 0, compressedSize: empty.length });
      await write(empty);
    } finally {
      current = null;
    }
    await write(dataDescriptor(record));
    keep(record);
  }

  async function run() {
    for (;;) {
      if (closed) return;
      const next = queue[head];
      if (!next) {
        if (ended) break;
        await new Promise<void>((resolve) => (wakeWriter = resolve));
        continue;
      }
      let entry: Entry;
      if ("next" in next) {
        const given = await next.next();
        if (given.done) {
          queue[head++] = undefined;
          continue;
        }
        entry = lazyEntry(given.value);
      } else {
        entry = next;
        queue[head++] = undefined;
      }
      await ("make" in entry ? writeWhole(entry) : writeStreamed(entry));
    }
    const directoryOffset = position;
    for (const chunk of directory.chunks()) await write(chunk);
    deflater?.close();
    await write(endRecords(count, position - directoryOffset, directoryOffset));
    await out.flush();
    if (!closed) output.push(null);
  }

  function add(entry: Entry | Each) {
    if (ended) throw new Error("zip: an entry was added after end()");
    queue.push(entry);
    wakeTheWriter();
  }

  return {
    addBuffer(path, bytes, options = {}) {
      add({ path, compress: options.compress ?? true, mtime: options.mtime ?? new Date(), make: () => bytes });
    },
    addLazyBuffer(path, options, make) {
      add(lazyEntry({ path, options, make }));
    },
    addEach(entries) {
      add(Symbol.asyncIterator in entries ? entries[Symbol.asyncIterator]() : entries[Symbol.iterator]());
    },
    addLazy(path, options, open) {
      add({ path, compress: options.compress, mtime: options.mtime ?? new Date(), open });
    },
    end() {
      ended = true;
      wakeTheWriter();
    },
    release(chunk) {
      out.release(chunk);
    },
    missing() {
      return [...missing];
    },
    output,
  };
}
