import { PassThrough, Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import yazl from "yazl";

/**
 * Zip files written as they are sent (the exports): entries are added with a function that
 * opens their bytes, and each is opened only when the zip reaches it (yazl's addReadStreamLazy), so
 * however many files an export holds, one is open at a time and memory holds a few chunks of it.
 * Backpressure runs from the client's socket back to the file being read: the front door waits for
 * 'drain', the web stream pauses this stream, the pipe pauses the file.
 *
 * A file whose bytes are gone when its turn comes (deleted meanwhile; disk ENOENT or S3 NoSuchKey,
 * which both stores report as ENOENT) becomes an empty entry and is listed by `missing()`, so the
 * export still completes; any other read error ends the stream with that error (the client sees a
 * broken download, not a zip that looks whole).
 */
export interface ZipEntryOptions {
  /** Deflate (text, JSON, WAV) or store as is (already-compressed media: MP3, MP4, PNG, WebM...). */
  compress: boolean;
  mtime?: Date;
}

export interface ZipStream {
  /** A small entry whose bytes are in memory (JSON, Markdown). */
  addBuffer(path: string, bytes: Buffer | string, options?: Partial<ZipEntryOptions>): void;
  /** An entry whose bytes `open` gives when the zip reaches it. */
  addLazy(path: string, options: ZipEntryOptions, open: () => Readable | Promise<Readable>): void;
  /** No more entries; the central directory follows the last one. */
  end(): void;
  /** Paths of lazy entries whose bytes were missing (known once the zip has passed them). */
  missing(): string[];
  /** The zip's bytes, as they are produced. */
  readonly output: Readable;
}

const OUTPUT_HIGH_WATER_MARK = 1024 * 1024;

export function createZipStream(): ZipStream {
  const zip = new yazl.ZipFile();
  const output = new PassThrough({ highWaterMark: OUTPUT_HIGH_WATER_MARK });
  const missing: string[] = [];
  let current: Readable | null = null;

  zip.outputStream.pipe(output);
  const fail = (error: Error) => {
    current?.destroy();
    output.destroy(error);
  };
  zip.on("error", fail);
  // The client went away (the web stream was cancelled): stop reading the file in hand (an S3 request too).
  output.on("close", () => {
    if (output.readableEnded) return;
    current?.destroy();
    (zip.outputStream as Readable).destroy();
  });

  /** The file's bytes; a file missing before its first byte is an empty entry, noted. */
  function guarded(path: string, source: Readable): Readable {
    const guard = new PassThrough();
    let started = false;
    source.on("data", () => {
      started = true;
    });
    source.once("error", (error: NodeJS.ErrnoException) => {
      if (!started && error.code === "ENOENT") {
        missing.push(path);
        guard.end();
      } else {
        fail(error);
      }
    });
    source.pipe(guard);
    current = source;
    return guard;
  }

  return {
    addBuffer(path, bytes, options = {}) {
      zip.addBuffer(typeof bytes === "string" ? Buffer.from(bytes) : bytes, path, {
        compress: options.compress ?? true,
        mtime: options.mtime ?? new Date(),
      });
    },
    addLazy(path, options, open) {
      zip.addReadStreamLazy(path, { compress: options.compress, mtime: options.mtime ?? new Date() }, (callback) => {
        if (output.destroyed) return callback(null, Readable.from([]));
        Promise.resolve()
          .then(open)
          .then(
            (source) => callback(null, guarded(path, source)),
            (error: Error) => callback(error, Readable.from([])),
          );
      });
    },
    end() {
      zip.end();
    },
    missing() {
      return [...missing];
    },
    output,
  };
}

/** Content-Disposition for a download: an ASCII fallback name and the exact one (RFC 6266, RFC 5987). */
export function attachmentDisposition(filename: string): string {
  const ascii =
    filename
      .normalize("NFKD")
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\%;]/g, "_")
      .trim() || "export.zip";
  const exact = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** The HTTP answer for a zip being written: no length (it is not known yet), never cached. */
export function zipResponse(filename: string, zip: ZipStream): Response {
  return new Response(createReadableStreamFromReadable(zip.output), {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": attachmentDisposition(filename),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

// ---- Names inside the zip ------------------------------------------------------------------------

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const NAME_MAX = 120;

/**
 * A file name that is safe in any unzip program on any system, from a name a person chose: no path
 * separators or characters Windows refuses, no control or direction-override characters, no
 * leading or trailing dots and spaces (so never "." or ".."), not a reserved Windows device name, at
 * most 120 characters with the extension kept. Empty after that: `fallback`.
 */
export function safeFileName(name: string, fallback: string): string {
  let safe = name
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "")
    .replace(/[/\\:*?"<>|]/g, "_")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  if (!safe) safe = fallback;
  if (WINDOWS_RESERVED.test(safe)) safe = `_${safe}`;
  const characters = [...safe];
  if (characters.length > NAME_MAX) {
    const dot = safe.lastIndexOf(".");
    const extension = dot > 0 && safe.length - dot <= 12 ? safe.slice(dot) : "";
    safe =
      characters
        .slice(0, NAME_MAX - [...extension].length)
        .join("")
        .replace(/[\s.]+$/g, "") + extension;
  }
  return safe;
}

/**
 * Names unique within a zip's folder (compared without case, as Windows and macOS do): the second
 * "Notes.md" is "Notes (2).md". `take("content", title, ".md")` → "content/Notes.md".
 */
export class ZipNames {
  readonly #taken = new Set<string>();

  take(folder: string, name: string, fallback = "file"): string {
    const safe = safeFileName(name, fallback);
    const dot = safe.lastIndexOf(".");
    const [base, extension] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ""];
    for (let n = 1; ; n++) {
      const candidate = `${folder ? `${folder}/` : ""}${n === 1 ? safe : `${base} (${n})${extension}`}`;
      const key = candidate.toLowerCase();
      if (!this.#taken.has(key)) {
        this.#taken.add(key);
        return candidate;
      }
    }
  }
}
