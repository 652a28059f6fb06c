import type { Readable } from "node:stream";

/** The zip writer's interface (zip-stream.server.ts writes it; docs/decisions/0078). */
export interface ZipEntryOptions {
  /** Deflate (text, JSON, WAV) or store as is (already-compressed media: MP3, MP4, PNG, WebM...). */
  compress: boolean;
  mtime?: Date;
}

export interface ZipStream {
  /** A small entry whose bytes are in memory (JSON, Markdown). */
  addBuffer(path: string, bytes: Buffer | string, options?: Partial<ZipEntryOptions>): void;
  /** A small entry whose bytes `make` gives, whole, when the zip reaches it (a body read in a batch). */
  addLazyBuffer(path: string, options: Partial<ZipEntryOptions>, make: MakeBytes): void;
  /**
   * Small entries that `entries` gives one at a time, each only when the zip reaches it: many entries
   * (an export's pieces) without a queued entry, name or closure for each of them up front. An async
   * iterable may read the next batch from the database when the zip reaches it.
   */
  addEach(entries: Iterable<LazyBufferEntry> | AsyncIterable<LazyBufferEntry>): void;
  /** An entry whose bytes `open` streams when the zip reaches it (a stored file). */
  addLazy(path: string, options: ZipEntryOptions, open: OpenBytes): void;
  /** No more entries; the central directory follows the last one. */
  end(): void;
  /**
   * Gives back a chunk read from `output` that its reader is done with (written on, never read
   * again), so the zip fills it again rather than making a new one (zip-response.server.ts). A reader
   * that keeps the chunks it reads never calls it.
   */
  release(chunk: Uint8Array): void;
  /** Paths of lazy entries whose bytes were missing (known once the zip has passed them). */
  missing(): string[];
  /** The zip's bytes, as they are produced. */
  readonly output: Readable;
}

/**
 * What makes a small entry's bytes, whole, when the zip reaches it; a list of strings is the entry's
 * text in parts (encoded one after the other, never joined into one string).
 */
export type MakeBytes = () => Bytes | Promise<Bytes>;
type Bytes = Buffer | string | readonly string[];

/**
 * What streams a lazy entry's bytes when the zip reaches it: a Readable (its chunks are the reader's
 * own), or pieces read into `buffer`, the zip's own and reused: each piece yielded is valid only until
 * the next is asked for (the writer copies it on before it asks).
 */
export type OpenBytes = (buffer: Buffer) => Readable | Promise<Readable> | AsyncIterable<Uint8Array>;

export interface LazyBufferEntry {
  path: string;
  options: Partial<ZipEntryOptions>;
  make: MakeBytes;
}
