import zlib from "node:zlib";
import { deflateWhole } from "./zip-format.server";
import { Scratch } from "./zip-output.server";

/**
 * One deflate path for all of a zip's small entries (docs/decisions/0078, "Memory"): one zlib stream,
 * reset between entries, writing into a buffer the zip keeps. `zlib.deflateRawSync` makes a zlib
 * stream object, its native state (about 200 KB) and its output buffers for every call, and closes
 * them after: 10,000 text pieces made tens of MiB of garbage that Node 24's larger young generation
 * lets pile up before a collection.
 *
 * Node's public zlib API has no synchronous call that keeps its stream, so this drives the stream's
 * handle the way Node's own `deflateRawSync` does (`_handle.writeSync`, results in `_writeState`);
 * its output is byte for byte `deflateRawSync`'s (tests/unit/zip-deflate.test.ts). Where a Node
 * release no longer has that handle, each entry gets its own `deflateRawSync` as before.
 */
interface ZlibHandle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOff: number,
    inLen: number,
    out: Uint8Array,
    outOff: number,
    outLen: number,
  ): void;
  reset(): void;
}

export class SharedDeflate {
  readonly #stream = zlib.createDeflateRaw();
  readonly #handle: ZlibHandle | null;
  readonly #state: Uint32Array | null;
  readonly #out = new Scratch(16 * 1024);
  #error: Error | null = null;

  constructor() {
    // The handle reports a zlib error through the stream; it is thrown from the call that made it.
    this.#stream.on("error", (error: Error) => (this.#error = error));
    const inner = this.#stream as unknown as { _handle?: Partial<ZlibHandle>; _writeState?: unknown };
    const shared =
      typeof inner._handle?.writeSync === "function" &&
      typeof inner._handle.reset === "function" &&
      inner._writeState instanceof Uint32Array;
    this.#handle = shared ? (inner._handle as ZlibHandle) : null;
    this.#state = shared ? (inner._writeState as Uint32Array) : null;
  }

  /** Whether entries share the one stream (false: a `deflateRawSync` per entry). */
  get shared(): boolean {
    return this.#handle !== null;
  }

  /** `raw` deflated whole; the bytes are valid until the next call (a view of the kept buffer). */
  deflate(raw: Uint8Array, chunkLimit: number): Uint8Array {
    const handle = this.#handle;
    const state = this.#state;
    if (!handle || !state) return deflateWhole(Buffer.from(raw.buffer, raw.byteOffset, raw.length), chunkLimit);
    // Room for deflate's worst case (stored blocks) so one call finishes the entry; grown if not.
    let out = this.#out.atLeast(raw.length + (raw.length >> 3) + (raw.length >> 6) + 64);
    let produced = 0;
    let inOff = 0;
    for (;;) {
      const inLen = raw.length - inOff;
      handle.writeSync(zlib.constants.Z_FINISH, raw, inOff, inLen, out, produced, out.length - produced);
      if (this.#error) throw this.#error;
      const [availOut, availIn] = [state[0]!, state[1]!];
      produced = out.length - availOut;
      inOff += inLen - availIn;
      if (availOut !== 0) break;
      const bigger = Buffer.allocUnsafeSlow(out.length * 2);
      out.copy(bigger, 0, 0, produced);
      out = this.#out.replace(bigger);
    }
    handle.reset();
    return out.subarray(0, produced);
  }

  /** Frees the stream's native state (the zip is done). */
  close(): void {
    this.#stream.close();
  }
}
