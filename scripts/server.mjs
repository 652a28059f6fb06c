// The production HTTP server (the front door): static files, then React Router for everything else.
// A plain node:http server rather than react-router-serve or Express: it passes the client's address
// to the app (login rate limits), streams large uploads, answers what React Router cannot (unknown
// methods, malformed paths), stops in order (docs/decisions/0014-life-cycle.md), and does only that
// on every request (docs/decisions/0016-front-door-without-express.md).
//
// Settings: this plain script reads one variable itself, BUILD_DIR, because it needs it to find the
// build. Every other setting (PORT, HOST, TRUST_PROXY, SHUTDOWN_GRACE_SECONDS, ...) comes parsed from
// the build: `entry.module.settings` is the one zod schema of app/lib/env.server.ts, so the script
// and the app cannot disagree about a default or a valid value.
//
// Run: `node scripts/server.mjs` (after `npm run build`), or through scripts/start.mjs (`npm start`)
// or scripts/launch.mjs (tests, benchmarks). Importing this module starts nothing.
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import proxyAddr from "proxy-addr";
import { sendFetchResponse, sendPage, sendWhole, toFetchRequest } from "./fetch-bridge.mjs";
import { createPageCache } from "./page-cache.mjs";
import { indexStaticFiles, serveStaticFile } from "./static-files.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const buildDir = path.resolve(root, process.env.BUILD_DIR || "build");
const CLIENT_ADDRESS_HEADER = "x-studio-client-address";

/** The methods this server answers; any other (TRACE, CONNECT, PROPFIND, ...) is 405 at the door. */
export const SUPPORTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const ALLOW = SUPPORTED_METHODS.join(", ");
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** How much of a body nobody read (a refused upload) is read and dropped before the connection is closed. */
const DISCARD_MAX_BYTES = 32 * 1024 * 1024;

/** Headers the app's middleware gives every answer, given here to static files too. */
const STATIC_HEADERS = { "X-Content-Type-Options": "nosniff", "Referrer-Policy": "strict-origin-when-cross-origin" };

/** The production build's server module and what its entry exports for the front door. */
export async function loadBuild() {
  const build = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
  const { settings, startApp, stopApp, isCrossOriginMutation, createRequestHandler, createReadableStreamFromReadable, answersFromMemory, actionsAtTheDoor } =
    build.entry.module;
  if (!settings || !startApp || !stopApp || !isCrossOriginMutation || !createRequestHandler || !createReadableStreamFromReadable || !answersFromMemory || !actionsAtTheDoor) {
    throw new Error(`${buildDir} is an older build without the front door's exports: run \`npm run build\``);
  }
  return { build, settings, startApp, stopApp, isCrossOriginMutation, createRequestHandler, createReadableStreamFromReadable, answersFromMemory, actionsAtTheDoor };
}

/**
 * The segments of a route's full path in the build's route tree (through layout routes without a
 * path), so routes.ts stays the one place a URL is written; null for no such route.
 */
function routePathSegments(routes, id) {
  if (!routes[id]) return null;
  const segments = [];
  for (let route = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined) {
    if (route.path) segments.unshift(...route.path.split("/").filter(Boolean));
  }
  return segments;
}

/** The answers from memory (entry.server.tsx's answersFromMemory, by route id) by their route's path. */
export function answersFromMemoryByPath(routes, answersFromMemory) {
  const byPath = new Map();
  for (const [id, answer] of Object.entries(answersFromMemory)) {
    const segments = routePathSegments(routes, id);
    const pathname = `/${(segments ?? []).join("/")}`;
    if (!segments || /[:*?]/.test(pathname)) throw new Error(`answersFromMemory: ${id} is not a route with a fixed path`);
    byPath.set(pathname, answer);
  }
  return byPath;
}

/**
 * The actions at the door (entry.server.tsx's actionsAtTheDoor, by route id) with their route's path
 * from the build's route tree as a pattern: `:name` segments are the params, decoded as React Router
 * decodes them. `match(rawPath)` gives the action and its params, or null.
 */
export function actionsAtTheDoorByPath(routes, actionsAtTheDoor) {
  const patterns = [];
  for (const [id, action] of Object.entries(actionsAtTheDoor)) {
    const segments = routePathSegments(routes, id);
    if (!segments || segments.some((segment) => segment.includes("*") || segment.endsWith("?"))) {
      throw new Error(`actionsAtTheDoor: ${id} is not a route with a plain path`);
    }
    const names = [];
    const source = segments
      .map((segment) => {
        if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(segment.slice(1));
        return "([^/]+)";
      })
      .join("/");
    patterns.push({ id, action, names, pattern: new RegExp(`^/${source}/?$`, "i") });
  }
  return {
    ids: patterns.map((entry) => entry.id),
    match(rawPath) {
      for (const { action, names, pattern } of patterns) {
        const found = pattern.exec(rawPath);
        if (!found) continue;
        const params = {};
        try {
          names.forEach((name, index) => (params[name] = decodeURIComponent(found[index + 1])));
        } catch {
          return null;
        }
        return { action, params };
      }
      return null;
    },
  };
}

/** An answer from the door itself: `{"detail"}` under /api, plain text for pages. */
function refuse(res, pathname, status, detail, text) {
  res.statusCode = status;
  if (status === 405) res.setHeader("Allow", ALLOW);
  const isApi = pathname.startsWith("/api/") || pathname === "/api";
  const body = isApi ? JSON.stringify({ detail }) : text;
  res.setHeader("Content-Type", isApi ? "application/json; charset=utf-8" : "text/plain; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.end(body);
}

/**
 * Trust in proxy headers, as Express took TRUST_PROXY: true (any hop), a hop count, or addresses and
 * subnets (comma-separated, with proxy-addr's names loopback, linklocal, uniquelocal).
 */
function compileTrust(trustProxy) {
  if (trustProxy === true) return () => true;
  if (typeof trustProxy === "number") return (_address, hop) => hop < trustProxy;
  if (typeof trustProxy === "string") return proxyAddr.compile(trustProxy.split(",").map((value) => value.trim()));
  return proxyAddr.compile([]);
}

function firstOf(header) {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(",")[0].trim() || undefined;
}

/**
 * The request's origin as the browser saw it. Behind a trusted proxy X-Forwarded-Proto and
 * X-Forwarded-Host count; otherwise the socket and the Host header.
 */
function originOf(req, trusted) {
  const own = req.socket.encrypted ? "https" : "http";
  const protocol = trusted ? (firstOf(req.headers["x-forwarded-proto"]) ?? own) : own;
  const forwardedHost = trusted ? firstOf(req.headers["x-forwarded-host"]) : undefined;
  const host = (forwardedHost ?? req.headers.host ?? "localhost").split(/[\\/?#@]/)[0] || "localhost";
  return `${protocol}://${host}`;
}

/**
 * The request listener over a loaded build (see loadBuild): refuses what React Router cannot
 * answer, serves the client files, anonymous pages rendered within the last second and the answers
 * the app holds in memory, refuses cross-site writes, then hands the rest to React Router.
 */
export function createFrontDoor(loaded, { isDraining = () => false } = {}) {
  const { build, settings, isCrossOriginMutation, createRequestHandler, createReadableStreamFromReadable, answersFromMemory, actionsAtTheDoor } = loaded;
  const trust = compileTrust(settings.trustProxy);
  const staticFiles = indexStaticFiles(path.join(buildDir, "client"), STATIC_HEADERS);
  const handleRequest = createRequestHandler(build, "production");
  const pageCache = createPageCache();
  const fromMemory = answersFromMemoryByPath(build.routes, answersFromMemory);
  const atTheDoor = actionsAtTheDoorByPath(build.routes, actionsAtTheDoor);

  return async function frontDoor(req, res) {
    // While shutting down, no connection is kept open for another request.
    if (isDraining()) res.setHeader("Connection", "close");
    const query = req.url.indexOf("?");
    const rawPath = query === -1 ? req.url : req.url.slice(0, query);
    // What React Router would turn into a 500 or an answer of the wrong shape: a method the Fetch API
    // cannot carry (TRACE threw inside the request handler) or that no route serves (PROPFIND got
    // `{"message":"Unexpected Server Error"}` without `Allow`), and a path that does not decode.
    if (!SUPPORTED_METHODS.includes(req.method)) return refuse(res, rawPath, 405, "Method not allowed", "Method Not Allowed");
    let pathname;
    try {
      pathname = decodeURIComponent(rawPath);
    } catch {
      return refuse(res, rawPath, 400, "Malformed URL: bad percent-escape in the path", "Bad Request");
    }
    if (serveStaticFile(staticFiles, req, res, pathname)) return;
    // An anonymous page rendered less than a second ago for the same URL and cookies (page-cache.mjs).
    const pageKey = pageCache.keyOf(req);
    const cached = pageKey === null ? null : pageCache.get(pageKey);
    if (cached) return sendPage(req, res, cached);
    // A personal answer the app holds in memory and can vouch for (entry.server.tsx's answersFromMemory):
    // sent without React Router's Request, middleware and loader; null leaves it to React Router.
    const answerFromMemory = req.method === "GET" ? fromMemory.get(pathname) : undefined;
    if (answerFromMemory) {
      const answer = await answerFromMemory({ url: req.url, headers: req.headers }).catch(() => null);
      if (answer) return sendWhole(req, res, answer);
    }
    // A POST the app answers here for what it is sure of (entry.server.tsx's actionsAtTheDoor): decided
    // from the headers, then answered whole, refusals included, without React Router's path.
    const doorAction = req.method === "POST" ? atTheDoor.match(rawPath) : null;
    const takenAtTheDoor = doorAction?.action({ url: req.url, headers: req.headers, params: doorAction.params, body: req }) ?? null;
    if (takenAtTheDoor) {
      try {
        const answer = await takenAtTheDoor();
        discardUnreadBody(req, res);
        return sendWhole(req, res, answer);
      } catch (error) {
        console.error("[studio] unexpected error answering", req.method, rawPath, error);
        if (res.headersSent) return res.destroy();
        return refuse(res, rawPath, 500, "Internal server error", "Internal Server Error");
      }
    }

    // Only this server decides who the client is: a header sent by the client is replaced.
    const trustedProxy = trust(req.socket.remoteAddress ?? "", 0);
    req.headers[CLIENT_ADDRESS_HEADER] = proxyAddr(req, trust) ?? req.socket.remoteAddress ?? "unknown";
    try {
      const request = toFetchRequest(req, res, originOf(req, trustedProxy), createReadableStreamFromReadable);
      // Cross-site writes are refused with 403 before React Router sees them (its own guard would
      // answer 400 for pages). The rule is the app's (app/lib/security.server.ts, through the build).
      if (!SAFE_METHODS.has(req.method) && isCrossOriginMutation(request)) {
        return refuse(res, rawPath, 403, "Cross-origin request refused", "Cross-origin request refused");
      }
      const response = await handleRequest(request);
      discardUnreadBody(req, res);
      const page = await pageCache.admit(pageKey, response);
      if (page) sendPage(req, res, page);
      else await sendFetchResponse(req, res, response);
    } catch (error) {
      console.error("[studio] unexpected error answering", req.method, rawPath, error);
      if (res.headersSent) res.destroy();
      else refuse(res, rawPath, 500, "Internal server error", "Internal Server Error");
    }
  };
}

/**
 * The answer is ready but its request's body was not read to the end (an upload refused with 413 by
 * its Content-Length, or midway): the rest is read and dropped, so the client can finish sending and
 * read the answer, instead of meeting a closed connection while it writes (EPIPE, "fetch failed").
 * Beyond DISCARD_MAX_BYTES the connection is closed after the answer instead.
 */
function discardUnreadBody(req, res) {
  if (req.complete || req.destroyed || req.readableEnded) return;
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > DISCARD_MAX_BYTES) {
    if (!res.headersSent) res.setHeader("Connection", "close");
    return;
  }
  let dropped = 0;
  // The body's web stream no longer gets the bytes (nobody reads it); they are counted and dropped.
  req.removeAllListeners("data");
  req.on("data", (chunk) => {
    dropped += chunk.length;
    if (dropped > DISCARD_MAX_BYTES) req.socket?.destroy();
  });
  req.resume();
}

/**
 * Node's default requestTimeout (300 s) cuts off any request whose body takes longer, so a 2 GiB
 * video would need about 7 MB/s. Uploads are not bounded by duration but by a stall timer
 * (app/lib/upload.server.ts drops one that sends nothing for 60 s) and by size limits; other
 * bodies are small and size-capped. The headers still have to arrive within 60 s (slowloris).
 */
export function applyTimeouts(server) {
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
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
  const server = http.createServer(createFrontDoor(loaded, { isDraining: () => draining }));
  server.listen(settings.port, settings.host, () => {
    const shown = settings.host === "0.0.0.0" || settings.host === "::" ? "localhost" : settings.host;
    console.log(`[studio] Creative AI Studio is running at http://${shown}:${server.address().port}`);
  });
  applyTimeouts(server);
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
