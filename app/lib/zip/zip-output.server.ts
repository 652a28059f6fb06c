/**
 * The zip writer's bytes on their way out (docs/decisions/0078, "Memory"): everything the writer
 * makes (headers, small entries, a file's pieces) is copied into the output chunk being filled, and a
 * chunk is handed on only when full (or at the end). So each CHUNK bytes of zip cost one fresh buffer,
 * whatever the pieces; the pieces themselves are encoded into a few buffers the writer keeps and
 * reuses (a chunk handed on is never touched again: the socket may still hold it).
 */
/** At most this many released chunks are kept for reuse. */
const MAX_FREE = 32;

export class OutputChunks {
  #chunk: Buffer | null = null;
  #used = 0;
  /** Chunks given back by the reader once written on (`release`), filled again before any new one is made. */
  readonly #free: Buffer[] = [];
  readonly #mine = new WeakSet<Uint8Array>();

  constructor(
    private readonly size: number,
    private readonly hand: (chunk: Buffer) => Promise<void>,
  ) {}

  /** Copies `bytes` (its `start`..`end`) into the output; hands on each chunk it fills. */
  async write(bytes: Uint8Array, start = 0, end = bytes.length): Promise<void> {
    while (start < end) {
      const chunk = (this.#chunk ??= this.#fresh());
      const count = Math.min(end - start, this.size - this.#used);
      chunk.set(start === 0 && count === bytes.length ? bytes : bytes.subarray(start, start + count), this.#used);
      this.#used += count;
      start += count;
      if (this.#used === this.size) await this.flush();
    }
  }

  #fresh(): Buffer {
    const reused = this.#free.pop();
    if (reused) return reused;
    const chunk = Buffer.allocUnsafeSlow(this.size);
    this.#mine.add(chunk);
    return chunk;
  }

  /**
   * A whole chunk handed on that its reader is done with (its bytes are written on): it is filled
   * again instead of a new one. Anything else (the last, partial chunk; a buffer not ours) is left alone.
   */
  release(chunk: Uint8Array): void {
    if (this.#mine.has(chunk) && this.#free.length < MAX_FREE) this.#free.push(chunk as Buffer);
  }

  /** Hands on what the chunk in hand holds (the zip's end). */
  async flush(): Promise<void> {
    if (!this.#chunk || this.#used === 0) return;
    const chunk = this.#used === this.size ? this.#chunk : this.#chunk.subarray(0, this.#used);
    this.#chunk = null;
    this.#used = 0;
    await this.hand(chunk);
  }
}

/** Texts whose worst-case UTF-8 size is above this are measured exactly before they are encoded. */
const EXACT_ABOVE = 1024 * 1024;

/** A buffer the writer keeps and reuses for what it encodes, grown (never shrunk) when a piece needs more. */
export class Scratch {
  #buffer: Buffer;

  constructor(size: number) {
    this.#buffer = Buffer.allocUnsafeSlow(size);
  }

  /** The buffer, at least `size` bytes long (its contents are not kept when it grows). */
  atLeast(size: number): Buffer {
    if (this.#buffer.length < size) this.#buffer = Buffer.allocUnsafeSlow(Math.max(size, this.#buffer.length * 2));
    return this.#buffer;
  }

  /** Puts `buffer` in place of the kept one (grown by its user, contents kept); returns it. */
  replace(buffer: Buffer): Buffer {
    return (this.#buffer = buffer);
  }

  /**
   * `parts` encoded (UTF-8) one after the other from the buffer's start, without joining them into
   * one string first; returns the buffer and how many bytes they took.
   */
  encode(parts: string | readonly string[]): { buffer: Buffer; length: number } {
    const list = typeof parts === "string" ? [parts] : parts;
    let units = 0;
    for (const part of list) units += part.length;
    // UTF-8 takes at most 3 bytes per UTF-16 unit; a long text (a large conversation's JSON) is measured
    // exactly instead, so the kept buffer does not stay at thrice its size.
    let room = units * 3;
    if (room > EXACT_ABOVE) room = list.reduce((bytes, part) => bytes + Buffer.byteLength(part), 0);
    const buffer = this.atLeast(room);
    let length = 0;
    for (const part of list) length += buffer.write(part, length);
    return { buffer, length };
  }
}
