import { PassThrough, Readable } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { formatBytes } from "~/common/bytes";
import { DomainError } from "~/lib/domain-error";
import { env } from "~/lib/settings/env.server";
import { outageOf } from "~/lib/outage.server";
import {
  fileStore,
  FileTooLargeError,
  UnsupportedContentError,
  type FileStore,
  type StagedFile,
  type StageOptions,
} from "./storage.server";

/**
 * Streaming multipart uploads (DESIGN.md: form parsers that buffer a whole file in memory are fine
 * for small forms, not for video). The request body flows through busboy straight into the file
 * store's staging file, with backpressure all the way, so memory stays flat whatever the file size.
 * A refusal is a DomainError (400, 408, 409, 413, 415, 422) with the text the API answers.
 */

/** DomainError codes of refusals a screen shows in its own words. */
export const UPLOAD_MISSING_FILE = "upload_missing_file";
export const UPLOAD_STALLED = "upload_stalled";
export const UPLOAD_TOO_SLOW = "upload_too_slow";

export interface ReceivedUpload {
  /** The staged file: commit it into the store, or discard it. */
  staged: StagedFile;
  /** The file name the client sent (may be empty or a path; never used as one). */
  filename: string;
  /** Text fields of the form (the screens send `intent`). */
  fields: Record<string, string>;
}

export interface UploadOptions extends StageOptions {
  /** The multipart field holding the file (docs/api.md#every-call: `file`). */
  field?: string;
  /** Said when the file is refused for its content (415). */
  unsupportedMessage: string;
  /**
   * Called once the file part's name is known, before any of its bytes are stored: throwing (a
   * DomainError, say 409 for a taken name) refuses the upload without receiving the whole file.
   * The part waits (backpressure) until it settles.
   */
  checkFilename?: (filename: string) => void | Promise<void>;
  store?: FileStore;
  /** How long the client may send nothing before the upload is refused as stalled (tests shorten it). */
  idleLimitMs?: number;
  /** The least average rate an upload must keep over each window (default: UPLOAD_MIN_BYTES_PER_SECOND)... */
  minBytesPerSecond?: number;
  /** ...and the window's length (default: UPLOAD_RATE_WINDOW_SECONDS). */
  rateWindowMs?: number;
}

/** Room for the multipart boundaries, part headers and a few small fields around the file. */
const MULTIPART_OVERHEAD = 1024 * 1024;
/**
 * After a refusal the rest of the body is read and dropped (up to this much), so the client can read
 * our answer; closing a socket with unread data makes the kernel reset it, and browsers then report a
 * network error instead of the 413/415. Past this the connection is closed.
 */
const DRAIN_LIMIT = 64 * 1024 * 1024;
/** A client that sends nothing for this long has stalled: the upload is refused (408) and its temporary file dropped. */
export const IDLE_LIMIT_MS = 60_000;

export const tooLargeMessage = (maxBytes: number) => `File is too large (the limit is ${formatBytes(maxBytes)})`;
export const STALLED_MESSAGE = "The upload stalled: nothing arrived for too long";
export const tooSlowMessage = (minBytesPerSecond: number, windowMs: number) =>
  `The upload was too slow: less than ${formatBytes(minBytesPerSecond)}/s over ${windowMs / 1000} s`;
export const missingFileMessage = (field = "file") => `A file is required (multipart field "${field}")`;

export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\s*;/i.test(request.headers.get("Content-Type") ?? "");
}

/** Reads and drops what is left of a refused body, up to DRAIN_LIMIT, then lets go of the connection. */
function drain(source: Readable) {
  let dropped = 0;
  source.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_LIMIT) source.destroy();
  });
  source.on("error", () => {});
  source.resume();
}

/** The caller's filename check refused the file: its error goes back to the caller as it was thrown. */
class CheckFailed extends Error {
  constructor(readonly reason: unknown) {
    super("filename check failed");
  }
}

function toRefusal(error: unknown, options: UploadOptions): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof FileTooLargeError) return new DomainError(413, tooLargeMessage(error.maxBytes));
  if (error instanceof UnsupportedContentError) {
    return error.empty ? new DomainError(422, "The file is empty") : new DomainError(415, options.unsupportedMessage);
  }
  return new DomainError(400, "The upload was interrupted or is not valid multipart/form-data");
}

/**
 * Receives one file from a multipart/form-data request into the store's staging area. Refusals are
 * DomainErrors (413 too large, 415 wrong content or encoding, 422 no file, 408 stalled, 400 malformed
 * or cut off) or whatever `checkFilename` threw; whenever it throws, nothing of the file is left on disk.
 */
export function receiveMultipartUpload(request: Request, options: UploadOptions): Promise<ReceivedUpload> {
  const field = options.field ?? "file";
  const store = options.store ?? fileStore;
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!isMultipart(request) || !request.body) {
    return Promise.reject(new DomainError(415, `Send the file as multipart/form-data in the field "${field}"`));
  }
  // 1 MiB buffers: fewer, larger hops through the parser (about 30% faster; memory stays bounded).
  const source = Readable.fromWeb(request.body as NodeWebReadableStream<Uint8Array>, { highWaterMark: 1024 * 1024 });
  const declaredLength = Number(request.headers.get("Content-Length") ?? NaN);
  if (declaredLength > options.maxBytes + MULTIPART_OVERHEAD) {
    // Refused before a byte is stored: the declared size alone is too much.
    drain(source);
    return Promise.reject(new DomainError(413, tooLargeMessage(options.maxBytes)));
  }

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      // One byte over the limit reaches the store, which then refuses the file.
      limits: {
        files: 1,
        fileSize: options.maxBytes + 1,
        fields: 20,
        fieldSize: 64 * 1024,
        parts: 30,
        headerPairs: 50,
      },
    });
  } catch {
    drain(source);
    return Promise.reject(new DomainError(400, "Malformed multipart/form-data request (no boundary)"));
  }

  // The quota's reservation is the database's: it out of reach is a 503, not "the upload was interrupted".
  const { reserve } = options;
  const stageOptions: StageOptions = reserve
    ? {
        ...options,
        reserve: (size) =>
          reserve(size)?.catch((error: unknown) => Promise.reject(outageOf(error, "database") ?? error)),
      }
    : options;

  return new Promise<ReceivedUpload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let filename = "";
    let staging: Promise<StagedFile> | null = null;
    /** What the store reads the file part from: ended early on a refusal, so staging stops and its temporary file goes. */
    let filePart: PassThrough | null = null;
    let settled = false;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error instanceof CheckFailed ? error.reason : toRefusal(error, options));
      // Stop parsing; keep reading (and dropping) the rest so the answer reaches the client.
      source.unpipe(parser);
      drain(source);
      filePart?.destroy(new Error("upload refused"));
      void staging?.then((staged) => store.discard(staged)).catch(() => {});
    };

    parser.on("file", (name, stream, info) => {
      // A form whose file input was left empty sends a part with an empty file name: no file.
      if (name !== field || staging || settled || !info.filename) {
        stream.resume();
        return;
      }
      filename = info.filename ?? "";
      // The store may stop reading early (refusal); busboy must still be able to finish the part,
      // so the store reads a pass-through and busboy's own stream is drained when it lets go.
      const body = new PassThrough();
      filePart = body;
      // The store sees a failure through its read; when it has already let go, nobody else needs to.
      body.on("error", () => {});
      stream.on("error", (error) => body.destroy(error));
      stream.pipe(body);
      const { checkFilename } = options;
      staging = checkFilename
        ? Promise.resolve(filename)
            .then(checkFilename)
            .then(
              () => store.stage(body, stageOptions),
              (error) => Promise.reject(new CheckFailed(error)),
            )
        : store.stage(body, stageOptions);
      staging.catch((error) => {
        stream.unpipe(body);
        stream.resume();
        fail(error);
      });
    });
    parser.on("field", (name, value, info) => {
      if (!info.valueTruncated) fields[name] = value;
    });
    parser.on("close", () => {
      if (!staging) return fail(new DomainError(422, missingFileMessage(field), { code: UPLOAD_MISSING_FILE }));
      staging.then(
        (staged) => {
          if (settled) return void store.discard(staged);
          settled = true;
          resolve({ staged, filename, fields });
        },
        (error) => fail(error),
      );
    });
    parser.on("error", (error) => fail(error));
    // A client that disconnects ends or errors the body: busboy then reports an unexpected end.
    source.on("error", (error) => parser.destroy(error instanceof Error ? error : new Error(String(error))));
    // A stalled upload is refused with an answer while the connection can still carry one (the
    // client may be waiting to read it); one that stalls again while its rest is being dropped is cut.
    const idle = setTimeout(function onIdle() {
      if (settled) return void source.destroy(new Error("Upload stalled"));
      fail(new DomainError(408, STALLED_MESSAGE, { code: UPLOAD_STALLED, headers: { Connection: "close" } }));
      idle.refresh();
    }, options.idleLimitMs ?? IDLE_LIMIT_MS);
    // An upload has no deadline (a large video may take hours) but must keep a least average rate over
    // each window: one that trickles (a byte a minute keeps the stall timer quiet) is refused with 408
    // and its staged bytes go; one that trickles while its rest is being dropped is cut.
    const minBytesPerSecond = options.minBytesPerSecond ?? env.uploadMinBytesPerSecond;
    const rateWindowMs = options.rateWindowMs ?? env.uploadRateWindowMs;
    let windowBytes = 0;
    const rate = setInterval(function onRateWindow() {
      const enough = windowBytes >= (minBytesPerSecond * rateWindowMs) / 1000;
      windowBytes = 0;
      if (enough) return;
      if (settled) return void source.destroy(new Error("Upload too slow"));
      fail(
        new DomainError(408, tooSlowMessage(minBytesPerSecond, rateWindowMs), {
          code: UPLOAD_TOO_SLOW,
          headers: { Connection: "close" },
        }),
      );
    }, rateWindowMs);
    source.on("data", (chunk: Buffer) => {
      idle.refresh();
      windowBytes += chunk.length;
    });
    // The server ends the request's signal when the client goes away; the body's stream itself is
    // not told (React Router's Node adapter), so the upload stops here and its temporary file goes.
    const onClientGone = () => source.destroy(new Error("The upload was cut off"));
    if (request.signal.aborted) onClientGone();
    else request.signal.addEventListener("abort", onClientGone, { once: true });
    source.on("close", () => {
      clearTimeout(idle);
      clearInterval(rate);
      request.signal.removeEventListener("abort", onClientGone);
    });
    source.pipe(parser);
  });
}
