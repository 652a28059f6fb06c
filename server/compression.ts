// Per-request compression of pages (text/html). Client files come precompressed from the build
// (vite.config.ts, served by server/client-files.ts); other dynamic answers (JSON, event streams,
// files) go as they are: a 150 KB API list cost more to compress than to send on the networks this
// server is meant for, and behind nginx (the multi-instance set-up) the proxy compresses what it is
// told to. Why this is hand-made and not the `compression` middleware: docs/decisions/0055.
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import Negotiator from "negotiator";
import {
  bytesOf,
  interpose,
  type BodyMethods,
  type HeadersArgument,
  type WriteArgs,
  type EndArgs,
} from "./response-seam";

/**
 * The level that pays on this kind of machine (Brotli quality 4 was 13% of a page's CPU): Brotli
 * quality 1 with a 256 KiB window, or gzip level 3, make a 42 KB dashboard about 8 KB (`npm run
 * bench` prints each level's cost and size).
 */
export const COMPRESSION = {
  brotliQuality: 1,
  brotliWindowBits: 18,
  gzipLevel: 3,
} as const;

const HTML = /^text\/html/i;
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality,
    [zlib.constants.BROTLI_PARAM_LGWIN]: COMPRESSION.brotliWindowBits,
  },
};
const GZIP_OPTIONS: zlib.ZlibOptions = { level: COMPRESSION.gzipLevel };

export type Encoding = "br" | "gzip";

/** br and gzip as the request accepts them, best first (br on a tie). */
export function acceptedEncodings(req: IncomingMessage): Encoding[] {
  return new Negotiator(req)
    .encodings(["br", "gzip"], ["br", "gzip"])
    .filter((name): name is Encoding => name === "br" || name === "gzip");
}

/** The encoding to compress a page with for this request: br, gzip or null. */
function pageEncoding(req: IncomingMessage): Encoding | null {
  if (req.method === "HEAD" || !req.headers["accept-encoding"]) return null;
  return acceptedEncodings(req)[0] ?? null;
}

/** writeHead's headers joined to the response's (theirs win, as Node has it). */
function takeHeaders(
  res: ServerResponse,
  statusCode: number,
  messageOrHeaders?: string | HeadersArgument,
  headers?: HeadersArgument,
) {
  const given = typeof messageOrHeaders === "string" ? headers : messageOrHeaders;
  if (typeof messageOrHeaders === "string") res.statusMessage = messageOrHeaders;
  res.statusCode = statusCode;
  if (Array.isArray(given)) {
    for (let at = 0; at < given.length; at += 2)
      res.appendHeader(String(given[at]), given[at + 1] as string | string[]);
  } else if (given) {
    for (const [name, value] of Object.entries(given)) if (value !== undefined) res.setHeader(name, value);
  }
}

/**
 * Compresses pages for browsers that accept br or gzip. A page written within one turn of the event
 * loop (every page but one with a deferred part) is compressed in one call with its length. A page
 * still being written after that turn goes on through a streaming compressor, flushed at the end of
 * each turn, so each part reaches the browser as it comes. Anything else (JSON, event streams, files,
 * HEAD) passes untouched, and its Accept-Encoding is never read: the encoding is negotiated only for
 * a page (docs/decisions/0083-the-request-path.md).
 */
export function compressPages(req: IncomingMessage, res: ServerResponse): void {
  interpose(res, (below) => new PageCompressor(req, res, below).methods());
}

/** One response's compression: undecided, then plain (untouched), held (until the turn ends), streamed, or done. */
class PageCompressor {
  private mode: "undecided" | "plain" | "held" | "streamed" | "done" = "undecided";
  private held: Buffer[] = [];
  private compressor: zlib.BrotliCompress | zlib.Gzip | null = null;
  private flushing = false;
  /** Negotiated once the answer is known to be a page. */
  private encoding: Encoding | null = null;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly below: BodyMethods,
  ) {}

  methods(): BodyMethods {
    const { res, below } = this;
    return {
      writeHead: (statusCode, messageOrHeaders, headers) => {
        takeHeaders(res, statusCode, messageOrHeaders, headers);
        this.decide();
        if (this.mode === "plain") below.writeHead(res.statusCode);
        return res;
      },
      write: (...args: WriteArgs) => {
        this.decide();
        if (this.mode === "plain") return below.write(...args);
        const [chunk, encodingOrCallback, callback] = args;
        this.take(bytesOf(chunk, encodingOrCallback));
        const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
        if (done) process.nextTick(done);
        return true;
      },
      end: (...args: EndArgs) => {
        this.decide();
        if (this.mode === "plain") return below.end(...args);
        const [chunk, encodingOrCallback] = args;
        if (chunk != null && typeof chunk !== "function") this.take(bytesOf(chunk, encodingOrCallback));
        if (this.mode === "streamed") {
          this.compressor!.end();
          return res;
        }
        return this.endHeld();
      },
    };
  }

  /** On the first write or head: compress this answer, or let it pass. */
  private decide() {
    if (this.mode !== "undecided") return;
    const { req, res } = this;
    if (!HTML.test(String(res.getHeader("Content-Type") ?? ""))) return void (this.mode = "plain");
    res.appendHeader("Vary", "Accept-Encoding");
    this.encoding = pageEncoding(req);
    const status = res.statusCode;
    if (
      !this.encoding ||
      res.hasHeader("Content-Encoding") ||
      status === 204 ||
      status === 304 ||
      req.method === "HEAD"
    ) {
      return void (this.mode = "plain");
    }
    this.mode = "held";
    res.removeHeader("Content-Length");
    res.setHeader("Content-Encoding", this.encoding);
    setImmediate(() => {
      if (this.mode === "held") this.stream();
    });
  }

  private take(bytes: Buffer) {
    if (this.mode === "held") return void this.held.push(bytes);
    this.compressor!.write(bytes);
    this.flushAtTurnEnd();
  }

  /** The whole page came within one turn: one call, with its length. */
  private endHeld(): ServerResponse {
    const { res, below } = this;
    const page = this.held.length === 1 ? this.held[0] : Buffer.concat(this.held);
    this.held = [];
    this.mode = "done";
    const body =
      this.encoding === "br" ? zlib.brotliCompressSync(page, BROTLI_OPTIONS) : zlib.gzipSync(page, GZIP_OPTIONS);
    res.setHeader("Content-Length", body.byteLength);
    if (!res.headersSent) below.writeHead(res.statusCode);
    return below.end(body);
  }

  /** The page is still being written after its first turn: on through a streaming compressor. */
  private stream() {
    const { res, below } = this;
    this.mode = "streamed";
    const compressor =
      this.encoding === "br" ? zlib.createBrotliCompress(BROTLI_OPTIONS) : zlib.createGzip(GZIP_OPTIONS);
    this.compressor = compressor;
    compressor.on("data", (chunk: Buffer) => below.write(chunk));
    compressor.on("end", () => below.end());
    compressor.on("error", () => res.destroy());
    below.writeHead(res.statusCode);
    for (const chunk of this.held) compressor.write(chunk);
    this.held = [];
    this.flushAtTurnEnd();
  }

  private flushAtTurnEnd() {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      if (this.mode === "streamed" && !this.compressor!.writableEnded) this.compressor!.flush();
    });
  }
}
