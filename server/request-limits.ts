// What a client may hold the server to: how long a request may take to arrive (the deadline), how
// slowly and how much of an unread body it may still send, when a refusal waits for the rest of its
// body, and how a closed connection lingers so the answer is read before it goes. Uploads are the
// exception to the deadline: app/lib/storage/upload.server.ts holds them to a least rate where they
// are received. Why these are hand-made: docs/decisions/0055; early answers: docs/decisions/0091.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { prepareRefusal, pathOf, type HeaderList } from "./refusal";
import { EarlyAnswer, dropRest } from "./early-answers";
import { callbackOf, interpose, ownMethods } from "./response-seam";

/** The front door's limits (REQUEST_DEADLINE_SECONDS, UPLOAD_MIN_BYTES_PER_SECOND, UPLOAD_RATE_WINDOW_SECONDS). */
export interface Limits {
  requestDeadlineMs: number;
  uploadMinBytesPerSecond: number;
  uploadRateWindowMs: number;
}

/** The settings' defaults, for a caller that gives none. */
export const DEFAULT_LIMITS: Limits = {
  requestDeadlineMs: 30_000,
  uploadMinBytesPerSecond: 1024,
  uploadRateWindowMs: 30_000,
};
/** Headers must arrive within this (or the request deadline, when shorter), for uploads too (slowloris). */
const HEADERS_TIMEOUT_MS = 60_000;
/**
 * How long an idle kept-alive connection stays open. Node's 5 s default races the clients that keep
 * connections longer (a proxy's upstream pool, nginx's keepalive_timeout is 60 s; a script's agent):
 * a request sent as the server closes the idle socket meets a reset and gets no answer, and a busy
 * machine widens that window. A server holds idle connections longer than its clients do.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** How much of a body nobody read (a refused upload) is read and dropped before the connection is closed. */
export const DISCARD_MAX_BYTES = 32 * 1024 * 1024;
/**
 * After an answer that closes its connection while the client is still sending, the socket is
 * half-closed and what still arrives is dropped for this long before it is destroyed: destroying it
 * with unread bytes makes the kernel reset the connection, which can erase the answer (a 408, a 413)
 * before the client has read it.
 */
export const LINGER_MS = 2_000;

/** When each connection opened (its first request's deadline counts from there). */
const connectedAt = new WeakMap<Socket, number>();
/** Connections that have had a request (a later one's deadline counts from its headers). */
const served = new WeakSet<Socket>();
/** Connections whose close already lingers. */
const lingering = new WeakSet<Socket>();

/** The limits from the build's settings (app/lib/settings/env.server.ts), or their defaults. */
export function limitsOf(settings?: Partial<Limits>): Limits {
  return {
    requestDeadlineMs: settings?.requestDeadlineMs ?? DEFAULT_LIMITS.requestDeadlineMs,
    uploadMinBytesPerSecond: settings?.uploadMinBytesPerSecond ?? DEFAULT_LIMITS.uploadMinBytesPerSecond,
    uploadRateWindowMs: settings?.uploadRateWindowMs ?? DEFAULT_LIMITS.uploadRateWindowMs,
  };
}

/**
 * Node's own requestTimeout would cut every request, uploads too, after a fixed time (a 2 GiB video
 * would need about 7 MB/s within the default 300 s): it is off, and the deadline is the front door's
 * (holdToDeadline) for every request but an upload. Headers must arrive within 60 s or the deadline,
 * whichever is shorter (slowloris).
 */
export function applyTimeouts(server: Server, limits: Partial<Pick<Limits, "requestDeadlineMs">> = {}): Server {
  const deadlineMs = limits.requestDeadlineMs ?? DEFAULT_LIMITS.requestDeadlineMs;
  server.requestTimeout = 0;
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, deadlineMs);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.on("connection", (socket: Socket) => connectedAt.set(socket, Date.now()));
  return server;
}

/**
 * An upload is a multipart/form-data request: it has no deadline (a 2 GiB video may take hours) but
 * must keep UPLOAD_MIN_BYTES_PER_SECOND, which app/lib/storage/upload.server.ts holds it to (408, its staged
 * bytes removed); a small multipart form is read with the deadline of app/lib/http/bodies.server.ts.
 */
export function isUpload(req: IncomingMessage): boolean {
  return /^multipart\/form-data\s*;/i.test(req.headers["content-type"] ?? "");
}

/** Whether the request says it carries a body at all (a GET usually does not: no timer for it). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * Every request but an upload must arrive whole, headers and body, within `deadlineMs` of its first
 * byte (the connection's opening for its first request; for a later one on a kept-alive connection,
 * its headers are bounded by headersTimeout and the deadline counts from them). One that has not is
 * cut: a 408 with `Connection: close` when no answer has begun (the app's own writes are dropped
 * then), else the connection is closed. Only the arrival is timed: once the request is whole, the
 * answer (an event stream, a download, a zip export) takes as long as it takes. A refusal the app
 * begins while the body still arrives, an upload's too, waits for the rest of it (EarlyAnswer), with
 * `limits`' least rate; the deadline sends it at once, with `Connection: close`.
 */
export function holdToDeadline(
  req: IncomingMessage,
  res: ServerResponse,
  {
    deadlineMs = DEFAULT_LIMITS.requestDeadlineMs,
    limits = DEFAULT_LIMITS,
    headers = {},
  }: { deadlineMs?: number; limits?: Limits; headers?: HeaderList } = {},
): void {
  const socket: Socket | null = req.socket;
  const first = socket !== null && !served.has(socket);
  if (socket) served.add(socket);
  lingerOnClose(socket);
  if (req.complete || !hasBody(req)) return;
  const early = new EarlyAnswer(req, res, limits, DISCARD_MAX_BYTES);
  // Whether the app has begun its answer, and whether the front door answered instead (then the
  // app's writes, which may still come, are dropped).
  let began = false;
  let cut = false;
  interpose(res, (below) => ({
    writeHead: (...args) => {
      if (cut) return res;
      if (early.holds(args[0])) return (early.keep(() => below.writeHead(...args)), res);
      began = true;
      return below.writeHead(...args);
    },
    write: (...args) => {
      if (cut) return (void callbackOf(args)?.(), true);
      if (early.holds(res.statusCode)) return (early.keep(() => below.write(...args)), true);
      began = true;
      return below.write(...args);
    },
    end: (...args) => {
      if (cut) return (void callbackOf(args)?.(), res);
      if (early.holds(res.statusCode)) return (early.keep(() => below.end(...args)), res);
      began = true;
      return below.end(...args);
    },
  }));
  if (isUpload(req)) return;
  const startedAt = first ? (connectedAt.get(socket) ?? Date.now()) : Date.now();
  const timer = setTimeout(
    () => {
      if (req.complete || req.destroyed || early.sendNow()) return;
      if (began || res.headersSent || res.writableEnded) return void socket?.destroy();
      cut = true;
      answerTimedOut(req, res, headers);
    },
    Math.max(0, startedAt + deadlineMs - Date.now()),
  );
  timer.unref();
  // Settled once the body is in (or the connection gone); a kept-alive socket keeps no listener per request.
  const settle = () => {
    clearTimeout(timer);
    req.off("end", settle);
    socket?.off("close", settle);
  };
  req.once("end", settle);
  socket?.once("close", settle);
}

/** The front door's 408 in place of the app's answer; header changes the app still makes are dropped. */
function answerTimedOut(req: IncomingMessage, res: ServerResponse, headers: HeaderList) {
  const body = prepareRefusal(res, headers, pathOf(req), "The request took too long to arrive", "Request Timeout");
  res.setHeader("Connection", "close");
  // The response's own methods: the ones the app reaches are guarded (and maybe compressing).
  const own = ownMethods(res);
  own.writeHead(408);
  own.end(body);
  res.setHeader = () => res;
  res.appendHeader = () => res;
  res.removeHeader = () => {};
}

/**
 * The answer is sent but its request's body was not read to the end (an upload refused with 413 by
 * its Content-Length, or midway): the rest is read and dropped, up to `maxBytes`, so the client can
 * finish sending and read the answer; beyond that the connection is closed (the adapter pauses a
 * request whose body nobody reads). A rest that arrives slower than an upload must
 * (uploadMinBytesPerSecond on average over each uploadRateWindowMs) closes it too; the rest of any
 * other request still has its deadline (holdToDeadline).
 */
export function discardUnreadBody(
  req: IncomingMessage,
  limits: Limits = DEFAULT_LIMITS,
  maxBytes = DISCARD_MAX_BYTES,
): void {
  if (req.complete || req.destroyed || req.readableEnded) return;
  dropRest(req, limits, maxBytes, () => req.socket?.destroy());
}

/**
 * Node closes a connection after an answer with `Connection: close` by destroying its socket once
 * the answer is written (its destroySoon). With the client still sending, that is a reset, and the
 * client's kernel may drop the answer before it is read (a 408 seen as ECONNRESET, now and then, on
 * Node 24): instead the socket is half-closed, what still arrives is dropped, and it is destroyed
 * when the client closes its side or after `lingerMs`. Node's http server calls destroySoon itself,
 * so this replaces it on the socket: the one place the front door reaches below the response.
 */
export function lingerOnClose(socket: Socket | null, lingerMs = LINGER_MS): void {
  if (!socket || lingering.has(socket) || typeof socket.destroySoon !== "function") return;
  lingering.add(socket);
  socket.destroySoon = function lingeringDestroySoon(this: Socket) {
    if (this.destroyed) return;
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), lingerMs);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
    this.once("end", () => this.destroy());
    this.resume();
  };
}
