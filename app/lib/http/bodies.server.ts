import { parseFormData } from "@mjackson/form-data-parser";
import { env } from "~/lib/settings/env.server";
import { apiError } from "./responder.server";
import { formatBytes } from "~/common/bytes";

const MiB = 1024 * 1024;
/** JSON bodies of the API (a 100,000-character content body is at most ~400 KB of JSON). */
export const JSON_BODY_MAX = 2 * MiB;
/** Files one screen form may carry (the drawing pad sends one; nothing needs more). */
const FORM_MAX_FILES = 4;
/** Form posts of the screens (urlencoded text triples in size when percent-encoded). */
export const FORM_BODY_MAX = 4 * MiB;

/** A request body that could not be read as asked: 413 when too large, 400 when malformed. */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 408 | 413,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A small body that has not arrived within REQUEST_DEADLINE_SECONDS is refused (408). The production
 * server holds every request but an upload to the same deadline from its connection's opening (server/request-limits.ts);
 * this one also holds under `react-router dev`, which has no such front door.
 */
export const bodyDeadlineMs = () => env.requestDeadlineMs;

/**
 * Reads at most `maxBytes` of the body into memory: a larger body is refused (413) by its declared
 * length before reading, or as soon as the count passes the limit, so no request can fill the memory;
 * one that trickles in slower than `deadlineMs` is refused (408), so none can hold a connection forever.
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
  deadlineMs = bodyDeadlineMs(),
): Promise<Buffer> {
  const tooLarge = () => bodyTooLarge(maxBytes);
  if (declaredTooLarge(request.headers.get("Content-Length"), maxBytes)) throw tooLarge();
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyError(408, "The request body took too long to arrive")), deadlineMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } catch (error) {
    // Stop reading without destroying the connection: the answer still reaches the client, and Node
    // discards whatever else it sends.
    try {
      reader.releaseLock();
    } catch {
      // a read still pending on an old runtime: the stream is dropped with the request anyway
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}

/** The 413 of a body over `maxBytes`, by its declared length or by count. */
function bodyTooLarge(maxBytes: number): BodyError {
  return new BodyError(413, `Request body must be at most ${formatBytes(maxBytes)}`);
}

/**
 * A body that took too long (408) may still be trickling in: the connection is closed after the
 * answer. The rest of a body refused for its size (413) is read and dropped by the server (up to
 * 32 MiB, server/request-limits.ts), so the client finishes sending and reads the answer.
 */
/** Whether a declared Content-Length already passes the limit (refused before a byte is read). */
function declaredTooLarge(contentLength: string | null, maxBytes: number): boolean {
  const declared = Number(contentLength);
  return Number.isFinite(declared) && declared > maxBytes;
}

function bodyErrorHeaders(error: BodyError): Record<string, string> {
  return error.status === 408 ? { Connection: "close" } : {};
}

/**
 * Parses a JSON request body of at most `maxBytes` (413 beyond); a body that is not JSON is the
 * client's mistake (400), never a 500. An empty body reads as {}.
 */
export async function readJsonBody(request: Request, maxBytes = JSON_BODY_MAX): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readBodyBytes(request, maxBytes);
  } catch (error) {
    if (error instanceof BodyError) throw apiError(error.status, error.message, bodyErrorHeaders(error));
    throw error;
  }
  return parseJsonBytes(bytes);
}

function parseJsonBytes(bytes: Buffer): unknown {
  const text = bytes.toString("utf8");
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw apiError(400, "Request body must be valid JSON");
  }
}

/**
 * A screen's form post (urlencoded or multipart) of at most `maxBytes`. Throws a Response: 413 when
 * too large, 400 when it is not a readable form (e.g. multipart without a boundary), never a 500; a
 * screen that catches it shows its own message, else its error boundary shows the status.
 */
export async function readFormData(request: Request, maxBytes = FORM_BODY_MAX): Promise<FormData> {
  let bytes: Buffer;
  try {
    bytes = await readBodyBytes(request, maxBytes);
  } catch (error) {
    if (error instanceof BodyError) {
      throw new Response(error.message, {
        status: error.status,
        headers: { "Content-Type": "text/plain; charset=utf-8", ...bodyErrorHeaders(error) },
      });
    }
    throw error;
  }
  const contentType = request.headers.get("Content-Type") ?? "";
  try {
    const buffered = new Request("http://form.invalid/", {
      method: "POST",
      headers: { "Content-Type": contentType },
      body: new Uint8Array(bytes),
    });
    // @mjackson/form-data-parser reads the multipart parts (urlencoded falls back to the platform's
    // reader): the body is already bounded above, and files stay in memory as Files (docs/decisions/0013).
    return await parseFormData(buffered, { maxFiles: FORM_MAX_FILES, maxFileSize: maxBytes }, (upload) => upload);
  } catch {
    throw new Response("The form could not be read", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
}
/** A URL's query as the plain object a schema reads. */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
