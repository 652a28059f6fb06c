import zlib from "node:zlib";

/**
 * The bytes of a zip's records (PKWARE APPNOTE 6.3), for the streaming writer in zip-stream.server.ts:
 * local headers, data descriptors, central directory records and the end records, with ZIP64 where a
 * size, an offset or the entry count outgrows the 32- and 16-bit fields. Names are UTF-8 (flag bit 11);
 * the central records carry the Info-ZIP UTC timestamp, as yazl (the previous writer) did.
 */

/** CRC-32 of `data`, continuing from `value`: zlib's own where Node has it (20.15+), else a table. */
export const crc32: (data: Uint8Array, value?: number) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === "function"
    ? (zlib as unknown as { crc32: (data: Uint8Array, value?: number) => number }).crc32
    : tableCrc32;

let table: Uint32Array | null = null;

export function tableCrc32(data: Uint8Array, value = 0): number {
  table ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = ~value >>> 0;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

export const STORED = 0;
export const DEFLATED = 8;

/** What the central directory needs of an entry once its bytes are written. */
export interface ZipRecord {
  /** The path as UTF-8 (the writer's reused buffer while the entry is written). */
  name: Uint8Array;
  method: typeof STORED | typeof DEFLATED;
  mtime: Date;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
  /** Sizes and CRC follow the data (flag bit 3) rather than sitting in the local header. */
  descriptor: boolean;
}

const UTF8_NAME = 1 << 11;
const DATA_DESCRIPTOR = 1 << 3;
const VERSION_UTF8 = 20;
const VERSION_ZIP64 = 45;
const VERSION_MADE_BY = (3 << 8) | 63; // Unix, APPNOTE 6.3
const FILE_MODE = 0o100664;
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;

const zip64 = (value: number) => value >= MAX32;

const MIN_DOS = new Date(1980, 0, 1);
const MAX_DOS = new Date(2107, 11, 31, 23, 59, 58);

/** MS-DOS date and time, in the server's local time (as zip tools read them). */
export function dosDateTime(date: Date): { date: number; time: number } {
  const d = date < MIN_DOS ? MIN_DOS : date > MAX_DOS ? MAX_DOS : date;
  return {
    date: (d.getDate() & 0x1f) | (((d.getMonth() + 1) & 0xf) << 5) | (((d.getFullYear() - 1980) & 0x7f) << 9),
    time: Math.floor(d.getSeconds() / 2) | ((d.getMinutes() & 0x3f) << 5) | ((d.getHours() & 0x1f) << 11),
  };
}

function flags(record: Pick<ZipRecord, "descriptor">): number {
  return UTF8_NAME | (record.descriptor ? DATA_DESCRIPTOR : 0);
}

export const localHeaderSize = (record: Pick<ZipRecord, "name">) => 30 + record.name.length;

/** The local file header (with a descriptor, CRC and sizes are zero here and follow the data) written into `out` at `at` (a buffer the writer reuses); returns where it ends. */
export function writeLocalHeader(record: Omit<ZipRecord, "offset">, out: Buffer, at: number): number {
  const { date, time } = dosDateTime(record.mtime);
  out.writeUInt32LE(0x04034b50, at);
  out.writeUInt16LE(VERSION_UTF8, at + 4);
  out.writeUInt16LE(flags(record), at + 6);
  out.writeUInt16LE(record.method, at + 8);
  out.writeUInt16LE(time, at + 10);
  out.writeUInt16LE(date, at + 12);
  out.writeUInt32LE(record.descriptor ? 0 : record.crc, at + 14);
  out.writeUInt32LE(record.descriptor ? 0 : record.compressedSize, at + 18);
  out.writeUInt32LE(record.descriptor ? 0 : record.size, at + 22);
  out.writeUInt16LE(record.name.length, at + 26);
  out.writeUInt16LE(0, at + 28);
  out.set(record.name, at + 30);
  return at + 30 + record.name.length;
}

/** The data descriptor after a streamed entry: 8-byte sizes when either outgrew 32 bits. */
export function dataDescriptor(record: Pick<ZipRecord, "crc" | "compressedSize" | "size">): Buffer {
  const wide = zip64(record.size) || zip64(record.compressedSize);
  const descriptor = Buffer.alloc(wide ? 24 : 16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(record.crc, 4);
  if (wide) {
    descriptor.writeBigUInt64LE(BigInt(record.compressedSize), 8);
    descriptor.writeBigUInt64LE(BigInt(record.size), 16);
  } else {
    descriptor.writeUInt32LE(record.compressedSize, 8);
    descriptor.writeUInt32LE(record.size, 12);
  }
  return descriptor;
}

const isWide = (record: Pick<ZipRecord, "size" | "compressedSize" | "offset">) =>
  zip64(record.size) || zip64(record.compressedSize) || zip64(record.offset);

/** The bytes of one central directory record (with a ZIP64 extra field when it needs one). */
export const centralRecordSize = (record: ZipRecord) => 46 + record.name.length + 9 + (isWide(record) ? 28 : 0);

/** One central directory record, with a ZIP64 extra field when a size or the offset needs 64 bits. */
export function centralRecord(record: ZipRecord): Buffer {
  const out = Buffer.alloc(centralRecordSize(record));
  writeCentralRecord(record, out, 0);
  return out;
}

/** One central directory record written into `out` at `at` (a buffer the writer reuses); returns where it ends. */
export function writeCentralRecord(record: ZipRecord, out: Buffer, at: number): number {
  const wide = isWide(record);
  const extraLength = 9 + (wide ? 28 : 0);
  const { date, time } = dosDateTime(record.mtime);
  out.fill(0, at, at + 46);
  out.writeUInt32LE(0x02014b50, at);
  out.writeUInt16LE(VERSION_MADE_BY, at + 4);
  out.writeUInt16LE(wide ? VERSION_ZIP64 : VERSION_UTF8, at + 6);
  out.writeUInt16LE(flags(record), at + 8);
  out.writeUInt16LE(record.method, at + 10);
  out.writeUInt16LE(time, at + 12);
  out.writeUInt16LE(date, at + 14);
  out.writeUInt32LE(record.crc, at + 16);
  out.writeUInt32LE(wide ? MAX32 : record.compressedSize, at + 20);
  out.writeUInt32LE(wide ? MAX32 : record.size, at + 24);
  out.writeUInt16LE(record.name.length, at + 28);
  out.writeUInt16LE(extraLength, at + 30);
  // comment length, disk number, internal attributes: 0
  out.writeUInt32LE((FILE_MODE << 16) >>> 0, at + 38);
  out.writeUInt32LE(wide ? MAX32 : record.offset, at + 42);
  out.set(record.name, at + 46);
  at += 46 + record.name.length;
  // Info-ZIP extended timestamp ("UT"): the modification time in UTC seconds.
  out.writeUInt16LE(0x5455, at);
  out.writeUInt16LE(5, at + 2);
  out.writeUInt8(0b11, at + 4);
  const seconds = Math.min(0x7fffffff, Math.max(-0x80000000, Math.floor(record.mtime.getTime() / 1000)));
  out.writeInt32LE(seconds, at + 5);
  at += 9;
  if (wide) {
    out.writeUInt16LE(0x0001, at);
    out.writeUInt16LE(24, at + 2);
    out.writeBigUInt64LE(BigInt(record.size), at + 4);
    out.writeBigUInt64LE(BigInt(record.compressedSize), at + 12);
    out.writeBigUInt64LE(BigInt(record.offset), at + 20);
    at += 28;
  }
  return at;
}

/**
 * The end of the zip after a central directory of `count` records, `size` bytes long at `offset`:
 * the ZIP64 end record and its locator first when any of the three outgrows its field.
 */
export function endRecords(count: number, size: number, offset: number): Buffer {
  const wide = count >= MAX16 || zip64(size) || zip64(offset);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(wide ? MAX16 : count, 8);
  end.writeUInt16LE(wide ? MAX16 : count, 10);
  end.writeUInt32LE(wide ? MAX32 : size, 12);
  end.writeUInt32LE(wide ? MAX32 : offset, 16);
  if (!wide) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(VERSION_MADE_BY, 12);
  record.writeUInt16LE(VERSION_ZIP64, 14);
  // this disk and the central directory's disk: 0
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(size), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + size), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}

/** Below this, deflate's own overhead leaves nothing to gain: stored as is. */
export const MIN_DEFLATE = 64;

/**
 * One call for a whole small entry, with the smallest window that spans it (9 to 15 bits: the same
 * compression as the default 32 KiB one) and an output buffer sized to it: much less zlib state to
 * set up and clear for each of many small entries than the defaults (`chunkLimit`: the largest
 * output buffer wanted).
 */
export function deflateWhole(raw: Buffer, chunkLimit: number): Buffer {
  return zlib.deflateRawSync(raw, {
    windowBits: Math.min(15, Math.max(9, Math.ceil(Math.log2(raw.length + 1)))),
    chunkSize: Math.min(chunkLimit, raw.length + 64),
  });
}
