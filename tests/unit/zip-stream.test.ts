import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { centralRecord, dataDescriptor, endRecords, tableCrc32 } from "../../app/lib/zip/zip-format.server";
import { createZipStream, WRITE_SIZE } from "../../app/lib/zip/zip-stream.server";
import type { ZipStream } from "../../app/lib/zip/zip-types.server";
import { readZip } from "../support/zip";

// The exports' zip writer (app/lib/zip/zip-stream.server.ts, docs/decisions/0078): its zips open in
// standard readers (yauzl, and Info-ZIP's unzip where installed) with every entry's bytes right.

/** The zip's bytes and the length of each write it handed over (flowing mode: one 'data' per write). */
function collect(zip: ZipStream): Promise<{ bytes: Buffer; chunks: number[] }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.output.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.output.on("error", reject);
    zip.output.resume();
    zip.output.on("end", () => resolve({ bytes: Buffer.concat(chunks), chunks: chunks.map((chunk) => chunk.length) }));
  });
}

/** Every entry as yauzl (a standard reader, ZIP64 included) reads it: name → bytes. */
function readWithYauzl(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, strictFileNames: true }, (error, zipfile) => {
      if (error || !zipfile) return reject(error ?? new Error("no zip"));
      const entries = new Map<string, Buffer>();
      zipfile.on("error", reject);
      zipfile.on("end", () => resolve(entries));
      zipfile.on("entry", (entry: yauzl.Entry) => {
        zipfile.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error("no stream"));
          const parts: Buffer[] = [];
          stream.on("data", (part: Buffer) => parts.push(part));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(parts));
            zipfile.readEntry();
          });
        });
      });
      zipfile.readEntry();
    });
  });
}

const hasUnzip = (() => {
  try {
    execFileSync("which", ["unzip"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** Info-ZIP's own test of every entry (CRC and sizes), where unzip is installed. */
function unzipTest(bytes: Buffer) {
  if (!hasUnzip) return;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "zip-stream-")), "test.zip");
  fs.writeFileSync(file, bytes);
  try {
    expect(execFileSync("unzip", ["-tqq", file]).toString()).toBe("");
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

function missingFile(): Readable {
  const source = new Readable({ read() {} });
  setImmediate(() => source.destroy(Object.assign(new Error("gone"), { code: "ENOENT" })));
  return source;
}

describe("createZipStream", () => {
  it("writes whole, lazy and streamed entries that standard readers open with every byte right", async () => {
    const big = Buffer.from("Ein langer Absatz über Bücher und Wörter. ".repeat(40_000)); // ~1.7 MB
    const media = randomBytes(3 * 1024 * 1024 + 17);
    const wav = Buffer.from("RIFF....WAVEfmt ".repeat(100_000));
    const expected = new Map<string, Buffer>([
      ["content/Grüße – 日本語 📝.md", Buffer.from("# Grüße\n\nÇa va? 日本語のテキスト\n")],
      ["content/Empty.md", Buffer.alloc(0)],
      ["content/Big.md", big],
      ["content/a.md", Buffer.from("a")],
      ["library/video/clip.mp4", media],
      ["library/voice/take.wav", wav],
      ["library/voice/gone.wav", Buffer.alloc(0)],
      ["library/video/gone.mp4", Buffer.alloc(0)],
      ["manifest.json", Buffer.from('{"ok":true}\n')],
    ]);
    const zip = createZipStream();
    zip.addBuffer("content/Grüße – 日本語 📝.md", expected.get("content/Grüße – 日本語 📝.md")!.toString());
    zip.addLazyBuffer("content/Empty.md", {}, async () => "");
    zip.addLazyBuffer("content/Big.md", {}, () => big);
    zip.addBuffer("content/a.md", "a");
    zip.addLazy("library/video/clip.mp4", { compress: false }, () =>
      Readable.from([media.subarray(0, 1000), media.subarray(1000, 2_000_000), media.subarray(2_000_000)]),
    );
    zip.addLazy("library/voice/take.wav", { compress: true }, async () => Readable.from([wav]));
    zip.addLazy("library/voice/gone.wav", { compress: true }, missingFile);
    zip.addLazy("library/video/gone.mp4", { compress: false }, missingFile);
    zip.addLazyBuffer("manifest.json", {}, () => JSON.stringify({ ok: zip.missing().length === 2 }) + "\n");
    zip.end();
    const { bytes } = await collect(zip);

    expect(zip.missing()).toEqual(["library/voice/gone.wav", "library/video/gone.mp4"]);
    const read = await readWithYauzl(bytes);
    expect([...read.keys()]).toEqual([...expected.keys()]);
    for (const [name, data] of expected) expect(read.get(name)!.equals(data), name).toBe(true);
    const entries = new Map(readZip(bytes).map((entry) => [entry.name, entry]));
    expect(entries.get("content/Big.md")!.method).toBe(8);
    expect(entries.get("content/Big.md")!.compressedSize).toBeLessThan(big.length / 10);
    expect(entries.get("library/video/clip.mp4")!.method).toBe(0);
    expect(entries.get("library/voice/take.wav")!.method).toBe(8);
    expect(entries.get("content/a.md")!.method).toBe(0); // one byte does not shrink: stored
    unzipTest(bytes);
  });

  it("writes ZIP64 end records when there are more than 65,535 entries, and readers see them all", async () => {
    const zip = createZipStream();
    const count = 70_000;
    for (let i = 0; i < count; i++) zip.addLazyBuffer(`content/${i}.md`, {}, () => `# ${i}\n`);
    zip.end();
    const { bytes } = await collect(zip);
    const eocd = bytes.length - 22;
    expect(bytes.readUInt32LE(eocd)).toBe(0x06054b50);
    expect(bytes.readUInt16LE(eocd + 8)).toBe(0xffff);
    expect(bytes.readUInt16LE(eocd + 10)).toBe(0xffff);
    const locator = eocd - 20;
    expect(bytes.readUInt32LE(locator)).toBe(0x07064b50);
    const record = Number(bytes.readBigUInt64LE(locator + 8));
    expect(bytes.readUInt32LE(record)).toBe(0x06064b50);
    expect(Number(bytes.readBigUInt64LE(record + 24))).toBe(count);
    expect(Number(bytes.readBigUInt64LE(record + 32))).toBe(count);
    const entries = readZip(bytes);
    expect(entries).toHaveLength(count);
    expect(entries[69_999]!.data.toString()).toBe("# 69999\n");
    unzipTest(bytes);
  });

  it("hands its bytes over in writes of at least 64 KiB (the last one aside)", async () => {
    const zip = createZipStream();
    for (let i = 0; i < 3000; i++) zip.addBuffer(`n/${i}.md`, `note ${i} `.repeat(20));
    zip.end();
    const { chunks } = await collect(zip);
    expect(chunks.length).toBeGreaterThan(2);
    for (const length of chunks.slice(0, -1)) expect(length).toBeGreaterThanOrEqual(WRITE_SIZE);
  });

  it("waits for its reader: entries are made only as the reader's buffer empties", async () => {
    const zip = createZipStream();
    let made = 0;
    for (let i = 0; i < 2000; i++) {
      zip.addLazyBuffer(`r/${i}.bin`, { compress: false }, () => {
        made++;
        return randomBytes(10 * 1024);
      });
    }
    zip.end();
    zip.output.pause();
    zip.output.read(0); // starts the writer
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The output holds about 256 KiB and one write of 64 KiB is in hand: some 32 entries of 10 KiB.
    expect(made).toBeGreaterThan(10);
    expect(made).toBeLessThan(45);
    const { bytes } = await collect(zip);
    expect(made).toBe(2000);
    expect(readZip(bytes)).toHaveLength(2000);
  });

  it("makes addEach's entries one at a time, in order, as the zip reaches them", async () => {
    const zip = createZipStream();
    let given = 0;
    zip.addBuffer("first.txt", "first");
    zip.addEach(
      (function* () {
        for (let i = 0; i < 3; i++) {
          given++;
          yield { path: `each/${i}.md`, options: {}, make: () => `entry ${i} `.repeat(i * 20) };
        }
      })(),
    );
    zip.addBuffer("last.txt", "last");
    zip.end();
    expect(given).toBe(0);
    const { bytes } = await collect(zip);
    expect(given).toBe(3);
    const entries = await readWithYauzl(bytes);
    expect([...entries.keys()]).toEqual(["first.txt", "each/0.md", "each/1.md", "each/2.md", "last.txt"]);
    expect(entries.get("each/2.md")!.toString()).toBe("entry 2 ".repeat(40));
  });

  it("goes back to the event loop between writes, so its bytes leave while entries are still being made", async () => {
    const zip = createZipStream();
    let made = 0;
    // Entries made synchronously from data in hand (as from a batch already read) await nothing but settled promises.
    zip.addEach(
      (function* () {
        for (let i = 0; i < 5000; i++)
          yield { path: `t/${i}.bin`, options: { compress: false }, make: () => (made++, randomBytes(1024)) };
      })(),
    );
    zip.end();
    let madeAtTimer = -1;
    setTimeout(() => (madeAtTimer = made), 0);
    let madeAtFirstData = -1;
    zip.output.once("data", () => (madeAtFirstData = made));
    const { bytes } = await collect(zip);
    expect(readZip(bytes)).toHaveLength(5000);
    // A timer and the first write come after a few 64 KiB writes, not after all 5 MiB of entries.
    expect(madeAtTimer).toBeGreaterThanOrEqual(0);
    expect(madeAtTimer).toBeLessThan(1000);
    expect(madeAtFirstData).toBeLessThan(1000);
  });

  it("stops reading the file in hand when its reader goes away", async () => {
    const zip = createZipStream();
    let destroyed = false;
    const endless = new Readable({
      read() {
        this.push(randomBytes(64 * 1024));
      },
      destroy(error, callback) {
        destroyed = true;
        callback(error);
      },
    });
    zip.addLazy("big.bin", { compress: false }, () => endless);
    zip.end();
    let received = 0;
    for await (const chunk of zip.output) {
      received += (chunk as Buffer).length;
      if (received > 2 * 1024 * 1024) break; // leaving the loop destroys the stream
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(destroyed).toBe(true);
  });

  it("ends with the error when a file fails after its first bytes, or for another reason than missing", async () => {
    for (const source of [
      () =>
        Readable.from(
          (async function* () {
            yield Buffer.from("start");
            throw Object.assign(new Error("gone midway"), { code: "ENOENT" });
          })(),
        ),
      () => {
        const broken = new Readable({ read() {} });
        setImmediate(() => broken.destroy(Object.assign(new Error("denied"), { code: "EACCES" })));
        return broken;
      },
    ]) {
      const zip = createZipStream();
      zip.addLazy("file.bin", { compress: true }, source);
      zip.end();
      await expect(collect(zip)).rejects.toThrow(/gone midway|denied/);
    }
  });
});

describe("zip records", () => {
  it("CRC-32 from the table matches zlib's, whole and continued", () => {
    const data = randomBytes(100_000);
    const whole = zlib.crc32(data);
    expect(tableCrc32(data)).toBe(whole);
    expect(tableCrc32(data.subarray(5000), tableCrc32(data.subarray(0, 5000)))).toBe(whole);
  });

  it("puts sizes and offsets past 4 GiB in ZIP64 fields", () => {
    const huge = 5 * 1024 ** 3 + 7;
    const name = Buffer.from("library/video/huge.mp4");
    const record = {
      name,
      method: 0 as const,
      mtime: new Date("2026-11-27T01:02:04Z"),
      crc: 0x12345678,
      compressedSize: huge,
      size: huge,
      offset: huge + 100,
      descriptor: true,
    };
    const central = centralRecord(record);
    expect(central.readUInt16LE(6)).toBe(45);
    expect(central.readUInt32LE(20)).toBe(0xffffffff);
    expect(central.readUInt32LE(24)).toBe(0xffffffff);
    expect(central.readUInt32LE(42)).toBe(0xffffffff);
    const extra = 46 + name.length + 9; // after the UT timestamp
    expect(central.readUInt16LE(extra)).toBe(0x0001);
    expect(Number(central.readBigUInt64LE(extra + 4))).toBe(huge);
    expect(Number(central.readBigUInt64LE(extra + 12))).toBe(huge);
    expect(Number(central.readBigUInt64LE(extra + 20))).toBe(huge + 100);
    const descriptor = dataDescriptor(record);
    expect(descriptor).toHaveLength(24);
    expect(Number(descriptor.readBigUInt64LE(16))).toBe(huge);
    const small = dataDescriptor({ crc: 1, compressedSize: 10, size: 20 });
    expect([small.length, small.readUInt32LE(8), small.readUInt32LE(12)]).toEqual([16, 10, 20]);
    const end = endRecords(3, 300, huge);
    expect(end.readUInt32LE(0)).toBe(0x06064b50);
    expect(Number(end.readBigUInt64LE(48))).toBe(huge);
    expect(end.readUInt32LE(end.length - 22 + 16)).toBe(0xffffffff);
    expect(endRecords(3, 300, 1000)).toHaveLength(22);
  });
});
