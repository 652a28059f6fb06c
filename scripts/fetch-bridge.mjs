// Between Node's http server and React Router's Fetch API handler: a Request from an IncomingMessage,
// and a Response written to a ServerResponse, compressed when the client accepts it.
//
// It replaces Express and @react-router/express (one Router and a dozen middlewares for four jobs)
// on the hot path of every request; see docs/decisions/0016-front-door-without-express.md.
//
// Compression: documents and JSON are compressed on the fly when the client accepts brotli (quality
// 4) or gzip (level 3): on this machine those levels gave the best CPU per byte saved (`npm run bench`
// prints the comparison). Answers known to be small (under 1 KB, one chunk) are sent as they are,
// with a Content-Length. A streamed document (React's shell, then deferred data) is flushed after each
// burst of chunks, so streaming still reaches the browser piece by piece. Server-Sent Events
// (text/event-stream) are never compressed and each event is written the moment it comes.
import zlib from "node:zlib";
import { acceptedEncodings } from "./accept-encoding.mjs";

const COMPRESSIBLE = /^(text\/(?!event-stream)|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/i;
const SMALL = 1024;
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP = { level: 3 };

/** The client's preferred encoding among the two we produce: "br", "gzip" or null. */
function negotiateEncoding(acceptEncoding) {
  return acceptedEncodings(acceptEncoding)[0] ?? null;
}

/**
 * A Request whose `signal` aborts when the client goes away before its answer is finished. Given to
 * the constructor, a signal costs every request a listener, a WeakRef and a FinalizationRegistry entry
 * in Node's Request (10 µs, and work for the garbage collector): this signal is its own, made only
 * when something asks for it, and aborted from the response's close.
 */
export class NodeRequest extends Request {
  #controller = null;
  #gone = false;

  get signal() {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#gone) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** The client went away before the answer was finished: abort the signal, now or when it is made. */
  static clientWentAway(request) {
    request.#gone = true;
    request.#controller?.abort();
  }
}

/**
 * The Fetch Request React Router takes. `origin` is `protocol://host` as the front door worked it out
 * (proxy headers only when trusted); `toBody` turns the Node stream into a web stream with backpressure.
 */
export function toFetchRequest(req, res, origin, toBody) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const init = { method: req.method, headers };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = toBody(req);
    init.duplex = "half";
  }
  const request = new NodeRequest(origin + req.url, init);
  res.once("close", () => {
    if (!res.writableFinished) NodeRequest.clientWentAway(request);
  });
  return request;
}

function shouldCompress(req, response) {
  if (req.method === "HEAD" || !response.body) return false;
  if (response.status < 200 || response.status === 204 || response.status === 206 || response.status === 304) return false;
  if (response.headers.has("Content-Encoding")) return false;
  if (/no-transform/i.test(response.headers.get("Cache-Control") ?? "")) return false;
  const length = Number(response.headers.get("Content-Length") ?? NaN);
  if (length < SMALL) return false;
  return COMPRESSIBLE.test(response.headers.get("Content-Type") ?? "");
}

function writeHead(res, response, extra) {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
}

function closed(res) {
  return res.destroyed || res.writableEnded;
}

/** Waits for 'drain' unless the response closes first (then resolves false). */
function drained(writable) {
  if (writable.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (value) => {
      writable.off("drain", onDrain);
      writable.off("close", onClose);
      resolve(value);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    writable.on("drain", onDrain);
    writable.on("close", onClose);
  });
}

/** Writes a Fetch Response to a Node ServerResponse (see the header). */
export async function sendFetchResponse(req, res, response) {
  if (closed(res)) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const encoding = shouldCompress(req, response) ? negotiateEncoding(req.headers["accept-encoding"]) : null;
  if (!response.body || req.method === "HEAD") {
    writeHead(res, response, {});
    res.end();
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const reader = response.body.getReader();
  let finished = false;
  try {
    let first = await reader.read();
    if (first.done) {
      finished = true;
      writeHead(res, response, {});
      res.end();
      return;
    }
    // A JSON answer (or any but a document) is usually one chunk: when it is, and it is small, it
    // goes out as it is with its length; a document is always worth compressing and never waits.
    const isDocument = /^text\/html/i.test(response.headers.get("Content-Type") ?? "");
    // Server-Sent Events go out as they come: waiting for a second chunk would hold the first event back.
    const isEventStream = /^text\/event-stream/i.test(response.headers.get("Content-Type") ?? "");
    let second = null;
    if (!isDocument && !isEventStream && !response.headers.has("Content-Length")) {
      second = await reader.read();
      if (second.done) {
        finished = true;
        const vary = encoding ? { Vary: appendVary(response.headers.get("Vary")) } : {};
        if (!encoding || first.value.byteLength < SMALL) {
          writeHead(res, response, { "Content-Length": String(first.value.byteLength), ...(encoding ? vary : {}) });
          res.end(first.value);
          return;
        }
        const compressed = encoding === "br" ? zlib.brotliCompressSync(first.value, BROTLI) : zlib.gzipSync(first.value, GZIP);
        writeHead(res, response, { "Content-Encoding": encoding, "Content-Length": String(compressed.byteLength), ...vary });
        res.end(compressed);
        return;
      }
    }
    if (!encoding) {
      writeHead(res, response, {});
      if (isEventStream) res.flushHeaders();
      finished = await pipeChunks(reader, res, first, second);
      return;
    }
    writeHead(res, response, { "Content-Encoding": encoding, Vary: appendVary(response.headers.get("Vary")) });
    res.removeHeader("Content-Length");
    const compressor = encoding === "br" ? zlib.createBrotliCompress(BROTLI) : zlib.createGzip(GZIP);
    const flushKind = encoding === "br" ? zlib.constants.BROTLI_OPERATION_FLUSH : zlib.constants.Z_SYNC_FLUSH;
    compressor.on("error", () => res.destroy());
    res.once("close", () => compressor.destroy());
    compressor.pipe(res);
    // Flush once per burst of chunks: what React wrote in one go goes out together, and a deferred
    // part of the page is not held back until the end.
    let flushScheduled = false;
    const scheduleFlush = () => {
      if (flushScheduled) return;
      flushScheduled = true;
      setImmediate(() => {
        flushScheduled = false;
        if (!compressor.destroyed && !compressor.writableEnded) compressor.flush(flushKind);
      });
    };
    const write = async (chunk) => {
      if (!compressor.write(chunk)) return drained(compressor);
      return true;
    };
    for (const chunk of [first, second]) {
      if (!chunk) continue;
      if (chunk.done) {
        finished = true;
        return void compressor.end();
      }
      if (!(await write(chunk.value))) return;
    }
    scheduleFlush();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      if (closed(res) || !(await write(next.value))) return;
      scheduleFlush();
    }
    finished = true;
    compressor.end();
  } catch (error) {
    if (closed(res)) return;
    throw error;
  } finally {
    // The client went away mid-answer: stop the producer (React's render, a file stream).
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** Writes the chunks as they come; resolves whether the body was read to its end. */
async function pipeChunks(reader, res, ...already) {
  for (const chunk of already) {
    if (!chunk) continue;
    if (chunk.done) {
      res.end();
      return true;
    }
    if (!res.write(chunk.value) && !(await drained(res))) return false;
  }
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    if (closed(res)) return false;
    if (!res.write(next.value) && !(await drained(res))) return false;
  }
  res.end();
  return true;
}

function appendVary(vary) {
  if (!vary) return "Accept-Encoding";
  return /accept-encoding|\*/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}

/**
 * Sends a page held whole in memory ({status, statusText, headers: [name, value][], body}: the page
 * cache's answers), compressed in one go when the client accepts it.
 */
export function sendPage(req, res, page) {
  sendWhole(req, res, { ...page, body: Buffer.from(page.body) });
}

/**
 * Sends an answer held whole in memory: {status, statusText?, headers: [name, value][] or a record,
 * body: bytes, encoded?}, compressed in one go when the client accepts it. `encoded`, a Map the
 * answer keeps with its bytes (the app's answers from memory), holds each compressed copy once made.
 */
export function sendWhole(req, res, answer) {
  res.statusCode = answer.status;
  if (answer.statusText) res.statusMessage = answer.statusText;
  for (const [name, value] of Array.isArray(answer.headers) ? answer.headers : Object.entries(answer.headers)) {
    if (name.toLowerCase() === "set-cookie") res.appendHeader("Set-Cookie", value);
    else res.setHeader(name, value);
  }
  const body = answer.body;
  const type = res.getHeader("content-type") ?? "";
  const accepted = COMPRESSIBLE.test(String(type)) ? negotiateEncoding(req.headers["accept-encoding"]) : null;
  // As sendFetchResponse: an answer that could be compressed varies by Accept-Encoding, even when this
  // one is too small to be.
  if (accepted) res.setHeader("Vary", appendVary(res.getHeader("vary")));
  const encoding = body.byteLength >= SMALL ? accepted : null;
  let sent = body;
  if (encoding) {
    res.setHeader("Content-Encoding", encoding);
    sent = answer.encoded?.get(encoding);
    if (!sent) {
      sent = encoding === "br" ? zlib.brotliCompressSync(body, BROTLI) : zlib.gzipSync(body, GZIP);
      answer.encoded?.set(encoding, sent);
    }
  }
  res.setHeader("Content-Length", sent.byteLength);
  res.end(req.method === "HEAD" ? undefined : sent);
}
