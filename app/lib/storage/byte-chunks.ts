/**
 * Bytes appended a little at a time and kept in a few large buffers (the exports' zip central
 * directory and manifest lines; docs/decisions/0078): one record per entry as its own object or small
 * Buffer would cost a header and a GC-tracked allocation each, 100,000 times over; here they cost
 * their bytes, in chunks of CHUNK_SIZE (a larger piece gets a chunk of its own size).
 */
const CHUNK_SIZE = 1024 * 1024;
/** The first chunk (a small zip's whole directory); each next one doubles, up to CHUNK_SIZE. */
const FIRST_CHUNK = 16 * 1024;

export class ByteChunks {
  readonly #full: Buffer[] = [];
  #current: Buffer | null = null;
  #used = 0;
  #length = 0;

  /** How many bytes have been appended. */
  get length(): number {
    return this.#length;
  }

  append(bytes: Uint8Array | string): void {
    const size = typeof bytes === "string" ? Buffer.byteLength(bytes) : bytes.length;
    if (!this.#current || this.#used + size > this.#current.length) {
      if (this.#current) this.#full.push(this.#current.subarray(0, this.#used));
      const next = this.#current ? Math.min(CHUNK_SIZE, this.#current.length * 2) : FIRST_CHUNK;
      this.#current = Buffer.allocUnsafeSlow(Math.max(next, size));
      this.#used = 0;
    }
    if (typeof bytes === "string") this.#current.write(bytes, this.#used);
    else this.#current.set(bytes, this.#used);
    this.#used += size;
    this.#length += size;
  }

  /** The bytes so far, as the buffers that hold them (no copy). */
  chunks(): Buffer[] {
    return this.#current && this.#used > 0 ? [...this.#full, this.#current.subarray(0, this.#used)] : [...this.#full];
  }
}
