import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { SENT_KEPT, zipBody } from "../../app/lib/zip/zip-response.server";
import { createZipStream, WRITE_SIZE } from "../../app/lib/zip/zip-stream.server";
import type { ZipStream } from "../../app/lib/zip/zip-types.server";

// The export's response body (app/lib/zip/zip-response.server.ts, docs/decisions/0078 "Memory"): chunks
// the HTTP layer has long written go back to the zip and are filled again, and the bytes stay right.

const MTIME = new Date("2026-11-27T09:00:00Z");
const files = Array.from({ length: 16 }, (_, n) => randomBytes(150 * 1024 + n * 999));
const texts = Array.from({ length: 300 }, (_, n) => `# Note ${n}\n\n${"lorem ipsum dolor ".repeat(50 + n)}\n`);

/** The same entries each time: text pieces (in parts), then files read into the zip's own buffer. */
function zipOfEverything(): ZipStream {
  const zip = createZipStream();
  texts.forEach((text, n) => {
    const [head, ...rest] = text.split("\n\n");
    zip.addLazyBuffer(`content/${n}.md`, { mtime: MTIME }, () => [head!, "\n\n", rest.join("\n\n")]);
  });
  files.forEach((file, n) =>
    zip.addLazy(`library/video/${n}.mp4`, { compress: n % 3 === 0, mtime: MTIME }, async function* (buffer) {
      for (let at = 0; at < file.length; at += buffer.length) {
        const count = file.copy(buffer, 0, at, Math.min(file.length, at + buffer.length));
        yield buffer.subarray(0, count);
      }
    }),
  );
  zip.end();
  return zip;
}

/** Read as the front door does: one chunk at a time, each written on (copied here) before the next ask. */
async function readLikeTheFrontDoor(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const written: Buffer[] = [];
  const buffers = new Set<ArrayBufferLike>();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffers.add(value.buffer);
    written.push(Buffer.from(value));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { bytes: Buffer.concat(written), chunks: written.length, buffers: buffers.size };
}

function readAll(zip: ZipStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  zip.output.on("data", (chunk: Buffer) => parts.push(chunk));
  return new Promise((resolve, reject) => {
    zip.output.on("error", reject);
    zip.output.on("end", () => resolve(Buffer.concat(parts)));
  });
}

function entriesOf(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zipfile) => {
      if (error || !zipfile) return reject(error ?? new Error("no zip"));
      const entries = new Map<string, Buffer>();
      zipfile.on("error", reject);
      zipfile.on("end", () => resolve(entries));
      zipfile.on("entry", (entry: yauzl.Entry) =>
        zipfile.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error("no stream"));
          const parts: Buffer[] = [];
          stream.on("data", (part: Buffer) => parts.push(part));
          stream.on("end", () => (entries.set(entry.fileName, Buffer.concat(parts)), zipfile.readEntry()));
        }),
      );
      zipfile.readEntry();
    });
  });
}

describe("the zip as a response body", () => {
  it("streams through a few reused buffers, with the same bytes as the zip's own output", async () => {
    const kept = await readAll(zipOfEverything());
    const read = await readLikeTheFrontDoor(zipBody(zipOfEverything()));
    expect(read.bytes.equals(kept)).toBe(true);
    expect(read.chunks).toBeGreaterThan(3 * SENT_KEPT);
    expect(read.chunks).toBe(Math.ceil(kept.length / WRITE_SIZE));
    // Without the chunks going back to the zip every chunk is a buffer of its own.
    expect(read.buffers).toBeLessThan(SENT_KEPT + 12);
    const entries = await entriesOf(read.bytes);
    texts.forEach((text, n) => expect(entries.get(`content/${n}.md`)?.toString()).toBe(text));
    files.forEach((file, n) => expect(entries.get(`library/video/${n}.mp4`)?.equals(file), String(n)).toBe(true));
  });

  it("stops the zip when the download is cancelled", async () => {
    const zip = zipOfEverything();
    const reader = zipBody(zip).getReader();
    await reader.read();
    await reader.cancel();
    expect(zip.output.destroyed).toBe(true);
  });
});
