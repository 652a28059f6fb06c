import type { Readable } from "node:stream";
import { parseRange } from "./byte-range";
import { DomainError } from "~/lib/domain-error";
import { apiError } from "~/lib/http/responder.server";
import { outageOf } from "~/lib/outage.server";
import type { FileStore } from "~/lib/storage/storage.server";

export interface ServedFile {
  /** The storage key. */
  key: string;
  /** The display name, for Content-Disposition (a download keeps it). */
  name: string;
  contentType: string;
  size: number;
  updatedAt: string;
}

/** RFC 5987 value characters: encodeURIComponent leaves ' ( ) * as they are, which the RFC does not allow. */
const rfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Content-Disposition for a download saved under `name`: RFC 6266's filename* (UTF-8) for browsers,
 * and a plain filename for older clients with every character outside printable ASCII, a quote and a
 * backslash replaced, so a name can never break out of the header.
 */
export function attachmentDisposition(name: string): string {
  const plain = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${plain}"; filename*=UTF-8''${rfc5987(name)}`;
}

/**
 * The stored bytes as a response body, once the store has answered: the first chunk (or the end) has
 * arrived before any status is chosen, so a store out of reach is a 503 and a missing object a 404,
 * never a 200 cut short (decision 0049). A failure after the first byte errors the body: the server's
 * adapter logs it (once) and the connection is cut, so the client sees an incomplete answer, not a
 * short file. Read on demand (backpressure); a client that goes away stops the store's read.
 */
export async function storedBody(
  store: FileStore,
  key: string,
  range?: { start: number; end: number },
): Promise<ReadableStream<Uint8Array>> {
  const source: Readable = store.open(key, range);
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let first: IteratorResult<Buffer>;
  try {
    first = await chunks.next();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new DomainError(404, "File not found");
    throw outageOf(error, "storage") ?? error;
  }
  let pending: IteratorResult<Buffer> | null = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: IteratorResult<Buffer>;
      try {
        next = pending ?? (await chunks.next());
      } catch (error) {
        controller.error(
          new Error(`the store failed while sending ${key}: ${(error as Error).message ?? error}`, { cause: error }),
        );
        return;
      }
      pending = null;
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

/**
 * Answers GET/HEAD for a stored file (DESIGN.md): Content-Type from the stored (sniffed) type,
 * nosniff, ETag/Last-Modified, and byte ranges (206, 416) so that audio and video seek. The store is
 * asked before the status is chosen (storedBody).
 */
export async function fileResponse(
  request: Request,
  store: FileStore,
  file: ServedFile,
  cacheControl = "private, no-cache",
): Promise<Response> {
  const etag = `"${file.key}-${file.size}-${Date.parse(file.updatedAt).toString(36)}"`;
  const headers = new Headers({
    "Content-Type": file.contentType,
    "X-Content-Type-Options": "nosniff",
    "Accept-Ranges": "bytes",
    "Cache-Control": cacheControl,
    ETag: etag,
    "Last-Modified": new Date(file.updatedAt).toUTCString(),
    "Content-Disposition": `inline; filename*=UTF-8''${rfc5987(file.name)}`,
    // User files are media, never documents: should one ever be opened as a page, it can do nothing.
    "Content-Security-Policy": "default-src 'none'; media-src 'self'; sandbox",
  });

  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });

  // If-Range: a range only applies to the version the client already has part of.
  const ifRange = request.headers.get("If-Range");
  const rangeHeader = ifRange && ifRange !== etag ? null : request.headers.get("Range");
  const range = parseRange(rangeHeader, file.size);
  if (range.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${file.size}`);
    headers.set("Content-Type", "application/json");
    headers.delete("Content-Disposition");
    return apiError(416, "Requested range not satisfiable", headers);
  }

  const head = request.method === "HEAD";
  if (range.kind === "partial") {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${file.size}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
    const body = head ? null : await storedBody(store, file.key, range);
    return new Response(body, { status: 206, headers });
  }
  headers.set("Content-Length", String(file.size));
  const body = head || file.size === 0 ? null : await storedBody(store, file.key);
  return new Response(body, { status: 200, headers });
}
