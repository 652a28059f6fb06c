// The production HTTP server: node:http with React Router's Node adapter, compiled by the build into
// <BUILD_DIR>/server-entry/index.js (server/build-plugin.ts; docs/decisions/0054) and run by
// scripts/start.mjs (`npm start`) or the test launcher. It loads the build beside it, starts the app
// (database, background work), listens, and stops in order on SIGTERM or SIGINT (decisions 0014 and
// 0030). Importing this module starts nothing; running the compiled file starts the server.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadBuild, type Settings } from "./app-build";
import { fairStarts } from "./fair-starts";
import { createServerListener } from "./listener";
import { startMetricsListener } from "./metrics-listener";
import { applyTimeouts, limitsOf } from "./request-limits";
import { requestLogEnabled, requestLogWriter } from "./request-log";

/** The build this compiled server belongs to: the folder above its own (<BUILD_DIR>/server-entry/). */
export function ownBuildDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
}

/**
 * Secure cookies (the production default) are only kept by browsers over https or on
 * http://localhost: someone opening http://<lan-address>:3000 could not stay signed in, and nothing
 * else would say why.
 */
function warnAboutSecureCookiesOnPlainHttp(settings: Settings) {
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
function stopOnSignals(
  server: http.Server,
  { graceMs, stopApp, onDrain }: { graceMs: number; stopApp: () => Promise<void>; onDrain: () => void },
) {
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  // Answers not yet started when the signal comes close their connection after them.
  const answers = new Set<http.ServerResponse>();
  server.on("request", (_req, res: http.ServerResponse) => {
    answers.add(res);
    res.once("close", () => answers.delete(res));
  });
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
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
    console.log(
      `[studio] stopped (connections closed in ${drained - began} ms, app stopped in ${Date.now() - drained} ms)`,
    );
    process.exit(code);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

/** Loads the build, starts the app (database, background work), then listens. */
export async function startServer(buildDir = ownBuildDir()): Promise<http.Server> {
  const loaded = await loadBuild(buildDir);
  const { settings, startApp, stopApp, observability } = loaded;
  // Everything printed from here on is masked (and one JSON object a line with LOG_FORMAT=json).
  observability.installConsole(settings.logFormat);
  warnAboutSecureCookiesOnPlainHttp(settings);
  // Before the app starts, so that the database opens with its query spans; without an endpoint no
  // OpenTelemetry code is loaded.
  const tracing = settings.otlpEndpoint ? await (await import("./tracing")).startTracing(loaded) : null;
  await startApp();
  const metrics = await startMetricsListener(loaded);
  let draining = false;
  const log = requestLogEnabled(settings) ? requestLogWriter(settings.logFormat, observability) : undefined;
  const server = http.createServer(
    fairStarts(createServerListener(loaded, { isDraining: () => draining, log, tracer: tracing ?? undefined })),
  );
  server.listen(settings.port, settings.host, () => {
    const shown = settings.host === "0.0.0.0" || settings.host === "::" ? "localhost" : settings.host;
    console.log(`[studio] Creative AI Studio is running at http://${shown}:${(server.address() as AddressInfo).port}`);
  });
  applyTimeouts(server, limitsOf(settings));
  const stopAll = async () => {
    metrics?.close();
    metrics?.closeAllConnections();
    await stopApp();
    // The last spans (the app's stop included) go out before the process ends.
    await tracing?.shutdown();
  };
  stopOnSignals(server, { graceMs: settings.shutdownGraceMs, stopApp: stopAll, onDrain: () => (draining = true) });
  return server;
}

/** Startup failures: bad settings print their own clear message; anything else its stack. */
export function failedToStart(error: unknown): never {
  console.error(error instanceof Error && error.name === "SettingsError" ? `[studio] ${error.message}` : error);
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  startServer().catch(failedToStart);
}
