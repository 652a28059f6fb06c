import zlib from "node:zlib";
import { deflateWhole } from "./zip-format.server";

/**
 * One deflate path for all of a zip's small entries (docs/decisions/0078, "Memory"): one zlib
 * stream, each entry written, finished (`flush(Z_FINISH)`) and the stream `reset()` for the next,
 * all public zlib calls. `zlib.deflateRawSync` makes a zlib stream object and its output buffers for
 * every call: 10,000 text pieces made tens of MiB of garbage that Node 24's larger young generation
 * lets pile up before a collection. Each entry is its own complete raw deflate stream, as a zip needs.
 *
 * The stream works on libuv's thread pool, so an entry costs a trip there; one that fails (or any
 * after a failure) is deflated by `deflateRawSync` instead.
 */
export class SharedDeflate {
  readonly #stream = zlib.createDeflateRaw();
  readonly #output: Buffer[] = [];
  #failed: Error | null = null;

  constructor() {
    this.#stream.on("data", (chunk: Buffer) => this.#output.push(chunk));
    this.#stream.on("error", (error: Error) => (this.#failed = error));
  }

  /** `raw` deflated whole, as one raw deflate stream of its own. */
  async deflate(raw: Buffer, chunkLimit: number): Promise<Buffer> {
    if (this.#failed) return deflateWhole(raw, chunkLimit);
    this.#output.length = 0;
    const finished = await new Promise<boolean>((resolve) => {
      const failed = () => resolve(false);
      this.#stream.once("error", failed);
      this.#stream.write(raw);
      this.#stream.flush(zlib.constants.Z_FINISH, () => {
        this.#stream.off("error", failed);
        resolve(this.#failed === null);
      });
    });
    if (!finished) return deflateWhole(raw, chunkLimit);
    const deflated = this.#output.length === 1 ? this.#output[0]! : Buffer.concat(this.#output);
    this.#output.length = 0;
    this.#stream.reset();
    return deflated;
  }

  /** Frees the stream's native state (the zip is done). */
  close(): void {
    this.#stream.close();
  }
}
