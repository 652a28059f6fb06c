import { parseFormData } from "@mjackson/form-data-parser";
import type { Readable } from "node:stream";
import type { z } from "zod";
import { DomainError } from "./domain-error";

/**
 * The API's one responder: a DomainError answers `{"detail", ...data}` with its status and headers;
 * anything else is rethrown (a thrown Response passes through, a bug stays a 500).
 */
export function errorResponse(error: unknown): Response {
  if (!(error instanceof DomainError)) throw error;
  return Response.json({ detail: error.detail, ...error.data }, { status: error.status, headers: error.options.headers });
}

/** JSON error answers of the API: `{"detail": "..."}` with the status that names the problem. */
export function apiError(status: number, detail: string, headers?: HeadersInit): Response {
  return errorResponse(new DomainError(status, detail, { headers: headers && Object.fromEntries(new Headers(headers)) }));
}

/**
 * Wraps an API route's loader or action: whatever DomainError it (or a model or service it calls)
 * throws is answered by `errorResponse`, so no route catches errors by hand.
 */
export function apiAction<Args extends unknown[]>(handler: (...args: Args) => Response | Promise<Response>): (...args: Args) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * A request as the front door holds it before any Fetch Request is made: the path with its query,
 * and Node's headers (lowercase names). What an answer from memory is asked with (below).
 */
export interface DoorRequest {
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * A whole answer the front door can send from memory, before React Router (entry.server.tsx's
 * answersFromMemory). `encoded` is where the door keeps the compressed copies it makes of `body`.
 */
export interface MemoryAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  encoded: Map<string, Uint8Array>;
}

/** What readNodeBody needs of Node's IncomingMessage: its events. */
export type NodeBody = Pick<Readable, "on" | "off">;

/**
 * A POST the front door may answer itself (entry.server.tsx's actionsAtTheDoor): the route's params
 * as React Router would give them, and the body as Node holds it (not read yet).
 */
export interface DoorPost extends DoorRequest {
  params: Readonly<Record<string, string>>;
  body: NodeBody;
}

/**
 * An action at the door decides from the headers alone whether it takes the request: null leaves it
 * to React Router (nothing was read); a function is the answer to come, and then every outcome,
 * refusals included, is answered by it.
 */
export type DoorAction = (request: DoorPost) => (() => Promise<MemoryAnswer>) | null;

/** A JSON answer given by the front door: the body and headers `Response.json` would have. */
export function jsonAnswer(value: unknown, headers: Record<string, string> = {}, status = 200): MemoryAnswer {
  return { status, headers: { "Content-Type": "application/json", ...headers }, body: Buffer.from(JSON.stringify(value)), encoded: new Map() };
}

/**
 * Runs an answer at the door with the API's one responder: a DomainError, or an API error thrown as a
 * Response (apiError), becomes the same answer React Router's route would send (`{"detail"}`).
 * `headers` (what the middleware would add) go with every answer, refusals included.
 */
export async function answerAsApi(answer: () => Promise<MemoryAnswer>, headers: Record<string, string>): Promise<MemoryAnswer> {
  let response: Response;
  try {
    const given = await answer();
    return { ...given, headers: { ...headers, ...given.headers } };
  } catch (error) {
    response = error instanceof Response ? error : errorResponse(error);
  }
  const own: Record<string, string> = { ...headers };
  response.headers.forEach((value, name) => {
    own[name] = value;
  });
  return { status: response.status, headers: own, body: new Uint8Array(await response.arrayBuffer()), encoded: new Map() };
}

/**
 * An answer whose body is bytes kept in memory (a kept page or content list): handed to the Response as a
 * one-chunk stream, because a Uint8Array body is copied first (90 µs for 150 KB, a tenth of the
 * request). Nothing downstream writes to a body's chunks, so many answers can share the bytes.
 */
export function keptBytesResponse(bytes: Uint8Array, init: { status?: number; headers: Record<string, string> | [string, string][] }): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const headers = new Headers(init.headers);
  headers.set("Content-Length", String(bytes.byteLength));
  return new Response(body, { status: init.status, headers });
}

/**
 * A GET for an HTML page, not for its data (`/dashboard.data`, a client-side navigation's). Loaders
 * and middleware get the request as it came (future.v8_passThroughRequests), `.data` suffix included.
 */
export function isDocumentRequest(request: Request): boolean {
  return request.method === "GET" && !new URL(request.url).pathname.endsWith(".data");
}

/** 405 with the methods the URL does answer in `Allow`. */
export function methodNotAllowed(allow: string, detail = "Method not allowed"): DomainError {
  return new DomainError(405, detail, { headers: { Allow: allow } });
}

/** A loader or action that only refuses the method: `export const loader = refuseMethod("POST")`. */
export function refuseMethod(allow: string, detail?: string): () => Response {
  return () => errorResponse(methodNotAllowed(allow, detail));
}

/** Throws the 405 unless the request's method is one of `allowed` (the URL's other methods go in `Allow`). */
export function requireMethod(request: Request, allowed: string[], allow = allowed.join(", ")): void {
  if (!allowed.includes(request.method)) throw methodNotAllowed(allow);
}

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

/** A small body that has not arrived in this time is refused (408): the server has no overall request timeout (uploads may take hours). */
export const BODY_DEADLINE_MS = 30_000;

/**
 * Reads at most `maxBytes` of the body into memory: a larger body is refused (413) by its declared
 * length before reading, or as soon as the count passes the limit, so no request can fill the memory;
 * one that trickles in slower than `deadlineMs` is refused (408), so none can hold a connection forever.
 */
export async function readBodyBytes(request: Request, maxBytes: number, deadlineMs = BODY_DEADLINE_MS): Promise<Buffer> {
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

/**
 * A body that took too long (408) may still be trickling in: the connection is closed after the
 * answer. The rest of a body refused for its size (413) is read and dropped by the front door (up to
 * 32 MiB, scripts/server.mjs), so the client finishes sending and reads the answer; closing instead
 * raced its writes (EPIPE, "fetch failed" instead of the 413).
 */
/** The 413 of a body over `maxBytes`, by its declared length or by count. */
function bodyTooLarge(maxBytes: number): BodyError {
  return new BodyError(413, `Request body must be at most ${formatLimit(maxBytes)}`);
}

/** Whether a declared Content-Length already passes the limit (refused before a byte is read). */
function declaredTooLarge(contentLength: string | null, maxBytes: number): boolean {
  const declared = Number(contentLength);
  return Number.isFinite(declared) && declared > maxBytes;
}

function bodyErrorHeaders(error: BodyError): Record<string, string> {
  return error.status === 408 ? { Connection: "close" } : {};
}

function formatLimit(bytes: number): string {
  return bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
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

/** readJsonBody for a body the front door holds (an action at the door): the same limits and answers. */
export async function readDoorJsonBody(request: DoorPost, maxBytes = JSON_BODY_MAX): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readNodeBody(request.body, request.headers["content-length"], maxBytes);
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
 * readBodyBytes for Node's IncomingMessage (an action at the door): the same 413 by declared length
 * or count, and 408 past the deadline. On a refusal it stops listening without destroying the
 * connection; the front door reads and drops the rest, so the client can read the answer.
 */
export function readNodeBody(
  body: NodeBody,
  contentLength: string | string[] | undefined,
  maxBytes: number,
  deadlineMs = BODY_DEADLINE_MS,
): Promise<Buffer> {
  const tooLarge = () => bodyTooLarge(maxBytes);
  if (typeof contentLength === "string" && declaredTooLarge(contentLength, maxBytes)) return Promise.reject(tooLarge());
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      clearTimeout(timer);
      body.off("data", onData);
      body.off("end", onEnd);
      body.off("error", onError);
      body.off("close", onClose);
    };
    const fail = (error: Error) => {
      stop();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) return fail(tooLarge());
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => fail(error);
    // Closed before its end: the client went away mid-body (nobody reads the answer).
    const onClose = () => fail(new BodyError(400, "The request body was cut off"));
    const timer = setTimeout(() => fail(new BodyError(408, "The request body took too long to arrive")), deadlineMs);
    body.on("data", onData);
    body.on("end", onEnd);
    body.on("error", onError);
    body.on("close", onClose);
  });
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
      throw new Response(error.message, { status: error.status, headers: { "Content-Type": "text/plain; charset=utf-8", ...bodyErrorHeaders(error) } });
    }
    throw error;
  }
  const contentType = request.headers.get("Content-Type") ?? "";
  try {
    const buffered = new Request("http://form.invalid/", { method: "POST", headers: { "Content-Type": contentType }, body: new Uint8Array(bytes) });
    // @mjackson/form-data-parser reads the multipart parts (urlencoded falls back to the platform's
    // reader): the body is already bounded above, and files stay in memory as Files (docs/decisions/0013).
    return await parseFormData(buffered, { maxFiles: FORM_MAX_FILES, maxFileSize: maxBytes }, (upload) => upload);
  } catch {
    throw new Response("The form could not be read", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}
/** The first problem zod found, as one readable sentence. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid input";
  const field = issue.path.join(".");
  // Our schemas carry full sentences; zod's own generic messages get the field name in front.
  return /^(Invalid|Expected|Too)/.test(issue.message) && field ? `${field}: ${issue.message}` : issue.message;
}

/** Validates input against a schema; invalid input is a 422 DomainError with the first problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new DomainError(422, firstIssue(result.error));
  return result.data;
}

/** A URL's query as the plain object a schema reads. */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The client's address as the Node server saw it (server.mjs sets this header and drops any sent by clients). */
export const CLIENT_ADDRESS_HEADER = "x-studio-client-address";
export function clientAddress(request: Request): string {
  return request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
}
