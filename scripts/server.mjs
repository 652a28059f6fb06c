// The production HTTP server: node:http with React Router's Node adapter (`createRequestListener` of
// @react-router/node), static files by sirv (the build's precompressed copies) and per-request
// compression of pages (compressPages). It answers what the adapter cannot (unknown
// methods, malformed paths), gives the app the client's connection through its load context,
// bounds what a client may leave unread, and stops in order (decisions 0014 and 0030).
// Everything about a request's meaning (security headers, the cross-origin check, the session, body
// limits) is the app's own middleware, the same under `react-router dev`.
//
// Settings: this plain script reads one variable itself, BUILD_DIR, because it needs it to find the
// build. Every other setting (PORT, HOST, TRUST_PROXY, SHUTDOWN_GRACE_SECONDS, ...) comes parsed from
// the build: `entry.module.settings` is the one zod schema of app/lib/env.server.ts.
//
// Run: `node scripts/server.mjs` (after `npm run build`), or through scripts/start.mjs (`npm start`)
// or scripts/launch.mjs (tests, benchmarks). Importing this module starts nothing.
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";
import Negotiator from "negotiator";
import { mimes } from "mrmime";
import sirv from "sirv";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const buildDir = path.resolve(root, process.env.BUILD_DIR || "build");

/** The methods this server answers; any other (TRACE, CONNECT, PROPFIND, ...) is 405 here. */
export const SUPPORTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const ALLOW = SUPPORTED_METHODS.join(", ");
/** How much of a body nobody read (a refused upload) is read and dropped before the connection is closed. */
const DISCARD_MAX_BYTES = 32 * 1024 * 1024;
/**
 * After an answer that closes its connection while the client is still sending, the socket is
 * half-closed and what still arrives is dropped for this long before it is destroyed: destroying it
 * with unread bytes makes the kernel reset the connection, which can erase the answer (a 408, a 413)
 * before the client has read it.
 */
const LINGER_MS = 2_000;
/** The defaults of REQUEST_DEADLINE_SECONDS, UPLOAD_MIN_BYTES_PER_SECOND and UPLOAD_RATE_WINDOW_SECONDS. */
const DEFAULT_LIMITS = { requestDeadlineMs: 30_000, uploadMinBytesPerSecond: 1024, uploadRateWindowMs: 30_000 };
/** Headers must arrive within this (or the request deadline, when shorter), for uploads too (slowloris). */
const HEADERS_TIMEOUT_MS = 60_000;
const CONNECTED_AT = Symbol("connectedAt");
const SERVED = Symbol("served");
const LINGERS = Symbol("lingers");
/** Client files named by their content hash (Vite's assets/) never change: a year, immutable. */
const HASHED_ASSET = /^\/assets\//;

/**
 * Pages are compressed per request at a level that pays on this kind of machine (issue 24: Brotli
 * quality 4 was 13% of a page's CPU): Brotli quality 1 with a 256 KiB window, or gzip level 3, make
 * a 42 KB dashboard about 8 KB (`npm run bench` prints each level's cost and size). Other dynamic
 * answers (JSON, event streams, files) go as they are: a 150 KB API list cost more to compress than
 * to send on the networks this server is meant for, and behind nginx (the multi-instance set-up)
 * the proxy compresses what it is told to. Client files come precompressed from the build.
 */
export const COMPRESSION = {
  brotliQuality: 1,
  brotliWindowBits: 18,
  gzipLevel: 3,
};
const HTML = /^text\/html/i;

/** The production build's server module and what its entry exports for this server. */
export async function loadBuild() {
  const build = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
  const { settings, startApp, stopApp, createRequestListener, createLoadContext, staticFileHeaders, strictTransportSecurity } = build.entry.module;
  if (!settings || !startApp || !stopApp || !createRequestListener || !createLoadContext || !staticFileHeaders || !strictTransportSecurity) {
    throw new Error(`${buildDir} is an older build without the server's exports: run \`npm run build\``);
  }
  return { build, settings, startApp, stopApp, createRequestListener, createLoadContext, staticFileHeaders, strictTransportSecurity };
}

/**
 * An answer from the server itself: `{"detail"}` under /api, plain text for pages, with the app's
 * one list of security headers (`headers`, the build's staticFileHeaders).
 */
function refuse(res, headers, pathname, status, detail, text) {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.statusCode = status;
  if (status === 405) res.setHeader("Allow", ALLOW);
  const isApi = pathname.startsWith("/api/") || pathname === "/api";
  const body = isApi ? JSON.stringify({ detail }) : text;
  res.setHeader("Content-Type", isApi ? "application/json; charset=utf-8" : "text/plain; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}

/** What the adapter would fail on before the app sees it: a path that does not decode, a Host that is no host. */
function malformed(req, rawPath) {
  try {
    decodeURIComponent(rawPath);
    new URL(req.url, `http://${req.headers.host ?? "localhost"}`);
    return false;
  } catch {
    return true;
  }
}

/**
 * The client files: the build's brotli or gzip copy when the browser accepts it, ETag and ranges
 * (sirv), hashed assets cached for a year and the rest for an hour, with the app's security headers.
 */
function clientFiles(headers) {
  // sirv names types by mrmime's table, which has no entry for the favicon's .ico (mrmime documents
  // the table as open to additions).
  mimes.ico ??= "image/x-icon";
  return sirv(path.join(buildDir, "client"), {
    brotli: true,
    gzip: true,
    etag: true,
    extensions: [],
    setHeaders(res, pathname) {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader("Cache-Control", HASHED_ASSET.test(pathname) ? "public, max-age=31536000, immutable" : "public, max-age=3600");
    },
  });
}

/**
 * sirv picks a precompressed copy by the names in Accept-Encoding alone; a client that refuses one
 * (`br;q=0`) must not get it. The header is rewritten to the encodings really accepted, best first
 * (the app reads its headers from the raw ones, which stay as they came).
 */
function withAcceptedEncodings(req) {
  const header = req.headers["accept-encoding"];
  if (header && /;\s*q=/i.test(header)) req.headers["accept-encoding"] = acceptedEncodings(req).join(", ");
  return req;
}

/** br and gzip as the request accepts them, best first (br on a tie). */
function acceptedEncodings(req) {
  return new Negotiator(req).encodings(["br", "gzip"], ["br", "gzip"]).filter((name) => name === "br" || name === "gzip");
}

/** The encoding to compress a page with for this request: br, gzip or null. */
function pageEncoding(req) {
  if (req.method === "HEAD" || !req.headers["accept-encoding"]) return null;
  return acceptedEncodings(req)[0] ?? null;
}

const BROTLI_OPTIONS = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality, [zlib.constants.BROTLI_PARAM_LGWIN]: COMPRESSION.brotliWindowBits },
};
const GZIP_OPTIONS = { level: COMPRESSION.gzipLevel };

/**
 * Compresses pages (text/html) for browsers that accept br or gzip. A page written within one turn
 * of the event loop (every page but one with a deferred part) is compressed in one call with its
 * length (issue 24's bench, Node 24: the `compression` middleware's streaming compressor cost 0.6
 * ms of a 2.2 ms dashboard, one call 0.06-0.1 ms). A page still being written after that turn
 * goes on through a streaming compressor, flushed at the end of each turn, so each part reaches the
 * browser as it comes. Anything else (JSON, event streams, files, HEAD) passes untouched.
 */
export function compressPages(req, res) {
  const encoding = pageEncoding(req);
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  /** undecided, then plain (untouched) or held (the page's chunks, until the turn ends) or streamed. */
  let mode = "undecided";
  let held = [];
  let compressor = null;

  const decide = () => {
    if (mode !== "undecided") return;
    const type = String(res.getHeader("Content-Type") ?? "");
    if (!HTML.test(type)) return void (mode = "plain");
    res.appendHeader("Vary", "Accept-Encoding");
    const status = res.statusCode;
    if (!encoding || res.hasHeader("Content-Encoding") || status === 204 || status === 304 || req.method === "HEAD") return void (mode = "plain");
    mode = "held";
    res.removeHeader("Content-Length");
    res.setHeader("Content-Encoding", encoding);
    setImmediate(() => {
      if (mode === "held") stream();
    });
  };
  const stream = () => {
    mode = "streamed";
    compressor = encoding === "br" ? zlib.createBrotliCompress(BROTLI_OPTIONS) : zlib.createGzip(GZIP_OPTIONS);
    compressor.on("data", (chunk) => write.call(res, chunk));
    compressor.on("end", () => end.call(res));
    compressor.on("error", () => res.destroy());
    writeHead.call(res, res.statusCode);
    for (const chunk of held) compressor.write(chunk);
    held = [];
    flushAtTurnEnd();
  };
  let flushing = false;
  const flushAtTurnEnd = () => {
    if (flushing) return;
    flushing = true;
    setImmediate(() => {
      flushing = false;
      if (mode === "streamed" && !compressor.writableEnded) compressor.flush();
    });
  };

  res.writeHead = function compressedWriteHead(status, ...rest) {
    // writeHead(status[, statusMessage][, headers]): the headers join the response's before deciding.
    const headers = typeof rest[0] === "string" ? rest[1] : rest[0];
    if (typeof rest[0] === "string") res.statusMessage = rest[0];
    res.statusCode = status;
    if (Array.isArray(headers)) for (let at = 0; at < headers.length; at += 2) res.appendHeader(headers[at], headers[at + 1]);
    else if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    decide();
    if (mode === "plain") writeHead.call(res, res.statusCode);
    return res;
  };
  res.write = function compressedWrite(chunk, encodingOrCallback, callback) {
    decide();
    if (mode === "plain") return write.call(res, chunk, encodingOrCallback, callback);
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, typeof encodingOrCallback === "string" ? encodingOrCallback : "utf8") : chunk;
    if (mode === "held") held.push(bytes);
    else {
      compressor.write(bytes);
      flushAtTurnEnd();
    }
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (done) process.nextTick(done);
    return true;
  };
  res.end = function compressedEnd(chunk, encodingOrCallback, callback) {
    decide();
    if (mode === "plain") return end.call(res, chunk, encodingOrCallback, callback);
    if (chunk != null && typeof chunk !== "function") res.write(chunk, typeof encodingOrCallback === "string" ? encodingOrCallback : undefined);
    if (mode === "streamed") {
      compressor.end();
      return res;
    }
    const page = held.length === 1 ? held[0] : Buffer.concat(held);
    held = [];
    mode = "done";
    const body = encoding === "br" ? zlib.brotliCompressSync(page, BROTLI_OPTIONS) : zlib.gzipSync(page, GZIP_OPTIONS);
    res.setHeader("Content-Length", body.byteLength);
    if (!res.headersSent) writeHead.call(res, res.statusCode);
    return end.call(res, body);
  };
}

/**
 * The request listener over a loaded build (see loadBuild): refuses what the adapter cannot answer,
 * serves the client files, and hands the rest, compressed where it pays, to React Router.
 */
export function createServerListener(loaded, { isDraining = () => false } = {}) {
  const { build, createRequestListener, createLoadContext, staticFileHeaders, strictTransportSecurity } = loaded;
  const limits = limitsOf(loaded.settings);
  const serveClientFile = clientFiles(staticFileHeaders);
  const app = createRequestListener({ build, mode: "production", getLoadContext: createLoadContext });

  return function listener(req, res) {
    // While shutting down, no connection is kept open for another request.
    if (isDraining()) res.setHeader("Connection", "close");
    // HSTS on every answer (client files, refusals, the app's) when PUBLIC_URL is https or a trusted proxy says so.
    const hsts = strictTransportSecurity(req.headers["x-forwarded-proto"], req.socket.remoteAddress);
    if (hsts) res.setHeader("Strict-Transport-Security", hsts);
    const query = req.url.indexOf("?");
    const rawPath = query === -1 ? req.url : req.url.slice(0, query);
    // What would otherwise be a 500 or an answer of the wrong shape: a method the Fetch API cannot
    // carry (TRACE) or that no route serves (PROPFIND), and a path or Host that does not parse.
    if (!SUPPORTED_METHODS.includes(req.method)) return refuse(res, staticFileHeaders, rawPath, 405, "Method not allowed", "Method Not Allowed");
    if (malformed(req, rawPath)) return refuse(res, staticFileHeaders, rawPath, 400, "Malformed URL: bad percent-escape in the path", "Bad Request");
    holdToDeadline(req, res, { deadlineMs: limits.requestDeadlineMs, headers: staticFileHeaders });
    res.once("finish", () => discardUnreadBody(req, limits));
    const toApp = () => {
      compressPages(req, res);
      // An answer whose body fails after its head went out (the store failing mid-download): the
      // adapter logs the error, then its try at a 500 on top throws; cut the connection instead, so
      // the client sees an incomplete answer, and nothing is left unhandled to end the process.
      app(req, res).catch(() => res.destroy());
    };
    if (req.method === "GET" || req.method === "HEAD") serveClientFile(withAcceptedEncodings(req), res, toApp);
    else toApp();
  };
}

/**
 * The answer is sent but its request's body was not read to the end (an upload refused with 413 by
 * its Content-Length, or midway): the rest is read and dropped, up to DISCARD_MAX_BYTES, so the
 * client can finish sending and read the answer; beyond that the connection is closed (the adapter
 * pauses a request whose body nobody reads). A rest that arrives slower than an upload must
 * (UPLOAD_MIN_BYTES_PER_SECOND on average over each UPLOAD_RATE_WINDOW_SECONDS) closes it too; the
 * rest of any other request still has its deadline (holdToDeadline).
 */
function discardUnreadBody(req, limits = DEFAULT_LIMITS) {
  if (req.complete || req.destroyed || req.readableEnded) return;
  let dropped = 0;
  let windowBytes = 0;
  const rate = setInterval(() => {
    if (windowBytes < (limits.uploadMinBytesPerSecond * limits.uploadRateWindowMs) / 1000) req.socket?.destroy();
    windowBytes = 0;
  }, limits.uploadRateWindowMs);
  req.removeAllListeners("data");
  req.on("data", (chunk) => {
    dropped += chunk.length;
    windowBytes += chunk.length;
    if (dropped > DISCARD_MAX_BYTES) req.socket?.destroy();
  });
  req.once("close", () => clearInterval(rate));
  req.once("end", () => clearInterval(rate));
  req.resume();
}

/** The front door's limits from the build's settings (app/lib/env.server.ts), or their defaults. */
function limitsOf(settings) {
  return {
    requestDeadlineMs: settings?.requestDeadlineMs ?? DEFAULT_LIMITS.requestDeadlineMs,
    uploadMinBytesPerSecond: settings?.uploadMinBytesPerSecond ?? DEFAULT_LIMITS.uploadMinBytesPerSecond,
    uploadRateWindowMs: settings?.uploadRateWindowMs ?? DEFAULT_LIMITS.uploadRateWindowMs,
  };
}

/**
 * An upload is a multipart/form-data request: it has no deadline (a 2 GiB video may take hours) but
 * must keep UPLOAD_MIN_BYTES_PER_SECOND, which app/lib/upload.server.ts holds it to where it is
 * received (408, its staged bytes removed); a small multipart form is read with the deadline of
 * app/lib/http/bodies.server.ts.
 */
export function isUpload(req) {
  return /^multipart\/form-data\s*;/i.test(req.headers["content-type"] ?? "");
}

/** Whether the request says it carries a body at all (a GET usually does not: no timer for it). */
function hasBody(req) {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * Every request but an upload must arrive whole, headers and body, within `deadlineMs` of its first
 * byte (the connection's opening for its first request; for a later one on a kept-alive connection,
 * its headers are bounded by headersTimeout and the deadline counts from them). One that has not is
 * cut: a 408 with `Connection: close` when no answer has begun (the app's own writes are dropped
 * then), else the connection is closed. Only the arrival is timed: once the request is whole, the
 * answer (an event stream, a download, a zip export) takes as long as it takes.
 */
export function holdToDeadline(req, res, { deadlineMs = DEFAULT_LIMITS.requestDeadlineMs, headers = {} } = {}) {
  const socket = req.socket;
  const first = socket && !socket[SERVED];
  if (socket) socket[SERVED] = true;
  lingerOnClose(socket);
  if (req.complete || !hasBody(req) || isUpload(req)) return;
  const startedAt = first ? (socket[CONNECTED_AT] ?? Date.now()) : Date.now();
  // Whether the app has begun its answer, and whether the front door answered instead (then the
  // app's writes, which may still come, are dropped).
  let began = false;
  let cut = false;
  const { writeHead, write, end } = res;
  const callbackOf = (args) => args.find((arg) => typeof arg === "function");
  res.writeHead = function guardedWriteHead(...args) {
    if (cut) return res;
    began = true;
    return writeHead.apply(res, args);
  };
  res.write = function guardedWrite(...args) {
    if (cut) return void callbackOf(args)?.(), true;
    began = true;
    return write.apply(res, args);
  };
  res.end = function guardedEnd(...args) {
    if (cut) return void callbackOf(args)?.(), res;
    began = true;
    return end.apply(res, args);
  };
  const timer = setTimeout(() => {
    if (req.complete || req.destroyed) return;
    if (began || res.headersSent || res.writableEnded) return void socket?.destroy();
    cut = true;
    answerTimedOut(req, res, headers);
  }, Math.max(0, startedAt + deadlineMs - Date.now()));
  timer.unref?.();
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
function answerTimedOut(req, res, headers) {
  const proto = Object.getPrototypeOf(res);
  const query = req.url.indexOf("?");
  const pathname = query === -1 ? req.url : req.url.slice(0, query);
  const isApi = pathname.startsWith("/api/") || pathname === "/api";
  const body = isApi ? JSON.stringify({ detail: "The request took too long to arrive" }) : "Request Timeout";
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader("Connection", "close");
  res.setHeader("Content-Type", isApi ? "application/json; charset=utf-8" : "text/plain; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  // The prototype's own methods: the instance's are the app's (compressPages, the guards above).
  proto.writeHead.call(res, 408);
  proto.end.call(res, body);
  res.setHeader = () => res;
  res.appendHeader = () => res;
  res.removeHeader = () => {};
}

/**
 * Node closes a connection after an answer with `Connection: close` by destroying its socket once
 * the answer is written (destroySoon). With the client still sending, that is a reset, and the
 * client's kernel may drop the answer before it is read (a 408 seen as ECONNRESET, now and then, on
 * Node 24): instead the socket is half-closed, what still arrives is dropped, and it is destroyed
 * when the client closes its side or after LINGER_MS.
 */
function lingerOnClose(socket) {
  if (!socket || socket[LINGERS] || typeof socket.destroySoon !== "function") return;
  socket[LINGERS] = true;
  socket.destroySoon = function lingeringDestroySoon() {
    if (this.destroyed) return;
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref?.();
    this.once("close", () => clearTimeout(timer));
    this.once("end", () => this.destroy());
    this.resume();
  };
}

/**
 * Node's own requestTimeout would cut every request, uploads too, after a fixed time (a 2 GiB video
 * would need about 7 MB/s within the default 300 s): it is off, and the deadline is the front
 * door's (holdToDeadline), for every request but an upload; an upload is held to a least rate
 * instead (app/lib/upload.server.ts). Headers must arrive within 60 s or the deadline, whichever is
 * shorter (slowloris).
 */
export function applyTimeouts(server, limits = {}) {
  const deadlineMs = limits.requestDeadlineMs ?? DEFAULT_LIMITS.requestDeadlineMs;
  server.requestTimeout = 0;
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, deadlineMs);
  server.on("connection", (socket) => {
    socket[CONNECTED_AT] = Date.now();
  });
  return server;
}

/**
 * Secure cookies (the production default) are only kept by browsers over https or on
 * http://localhost: someone opening http://<lan-address>:3000 could not stay signed in, and nothing
 * else would say why.
 */
function warnAboutSecureCookiesOnPlainHttp(settings) {
  const host = settings.host.replace(/^\[|\]$/g, "").toLowerCase();
  const loopback = host === "localhost" || host === "::1" || /^127\./.test(host) || /^::ffff:127\./.test(host);
  if (!settings.cookieSecure || loopback) return;
  console.warn(
    `[studio] warning: cookies are Secure and HOST=${host} is reachable from other machines: browsers keep the login ` +
      "only over https (e.g. behind a TLS proxy) or on http://localhost; for plain http on a LAN set COOKIE_SECURE=false.",
  );
}

/**
 * SIGTERM or SIGINT: stop accepting connections, let the requests in flight finish for at most
 * SHUTDOWN_GRACE_SECONDS, then close the connections that remain, stop the app (background work and
 * the video job runner, whose job resumes on the next start; then the database) and exit 0. A second
 * signal exits at once.
 */
function stopOnSignals(server, { graceMs, stopApp, onDrain }) {
  const sockets = new Set();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  // Answers not yet started when the signal comes close their connection after them.
  const answers = new Set();
  server.on("request", (_req, res) => {
    answers.add(res);
    res.once("close", () => answers.delete(res));
  });
  let stopping = false;
  const stop = async (signal) => {
    if (stopping) {
      console.log(`[studio] ${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    const began = Date.now();
    onDrain();
    console.log(`[studio] ${signal}: not accepting connections; requests in flight have ${graceMs / 1000} s to finish`);
    // If stopping the app itself hangs, the process still ends.
    setTimeout(() => {
      console.error("[studio] the app did not stop in time: exiting");
      process.exit(1);
    }, graceMs + 15_000).unref();
    for (const res of answers) if (!res.headersSent) res.setHeader("Connection", "close");
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    const cutOff = setTimeout(() => {
      console.log(`[studio] grace period over: closing ${sockets.size} connection(s) still open`);
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
    }, graceMs);
    await closed;
    clearTimeout(cutOff);
    const drained = Date.now();
    let code = 0;
    try {
      await stopApp();
    } catch (error) {
      console.error("[studio] stopping the app failed", error);
      code = 1;
    }
    console.log(`[studio] stopped (connections closed in ${drained - began} ms, app stopped in ${Date.now() - drained} ms)`);
    process.exit(code);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

/** Loads the build, starts the app (database, background work), then listens. */
export async function startServer() {
  const loaded = await loadBuild();
  const { settings, startApp, stopApp } = loaded;
  warnAboutSecureCookiesOnPlainHttp(settings);
  await startApp();
  let draining = false;
  const server = http.createServer(createServerListener(loaded, { isDraining: () => draining }));
  server.listen(settings.port, settings.host, () => {
    const shown = settings.host === "0.0.0.0" || settings.host === "::" ? "localhost" : settings.host;
    console.log(`[studio] Creative AI Studio is running at http://${shown}:${server.address().port}`);
  });
  applyTimeouts(server, limitsOf(settings));
  stopOnSignals(server, { graceMs: settings.shutdownGraceMs, stopApp, onDrain: () => (draining = true) });
  return server;
}

/** Startup failures: bad settings print their own clear message; anything else its stack. */
export function failedToStart(error) {
  console.error(error?.name === "SettingsError" ? `[studio] ${error.message}` : error);
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  startServer().catch(failedToStart);
}
