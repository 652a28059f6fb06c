// The request listener: refuses what React Router's Node adapter cannot answer (unknown methods,
// malformed paths), holds each request to the front door's limits, serves the client files, and
// hands the rest, compressed where it pays, to the adapter. Everything about a request's meaning
// (security headers, the cross-origin check, the session, body limits) is the app's own middleware,
// the same under `react-router dev`.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { LoadedBuild } from "./app-build";
import { clientFiles } from "./client-files";
import { compressPages } from "./compression";
import { beginObservation, type RequestObservation } from "./observe";
import { pathOf, prepareRefusal, type HeaderList } from "./refusal";
import { discardUnreadBody, holdToDeadline, limitsOf } from "./request-limits";
import { logRequest, type RequestLogWrite } from "./request-log";

/** The methods this server answers; any other (TRACE, CONNECT, PROPFIND, ...) is 405 here. */
export const SUPPORTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const ALLOW = SUPPORTED_METHODS.join(", ");

/** Traces requests (server/tracing.ts, when OTEL_EXPORTER_OTLP_ENDPOINT is set): `run` hands the request to the app inside its span. */
export interface RequestTracer {
  traceRequest(req: IncomingMessage, res: ServerResponse, observation: RequestObservation, run: () => void): void;
}

export interface ListenerOptions {
  /** True once the server is stopping: no connection is kept open for another request. */
  isDraining?: () => boolean;
  /** Where the request log's records go (server/request-log.ts `requestLogWriter`); none: no log. */
  log?: RequestLogWrite;
  tracer?: RequestTracer;
}

/** An answer from the server itself (405, 400). */
function refuse(
  res: ServerResponse,
  headers: HeaderList,
  pathname: string,
  status: number,
  detail: string,
  text: string,
) {
  res.statusCode = status;
  if (status === 405) res.setHeader("Allow", ALLOW);
  res.end(prepareRefusal(res, headers, pathname, detail, text));
}

/** What the adapter would fail on before the app sees it: a path that does not decode, a Host that is no host. */
function malformed(req: IncomingMessage, rawPath: string): boolean {
  try {
    // The decoded path is compared, never a bare call: the build (Rolldown) drops a bare
    // decodeURIComponent(...) as free of effects, and its throw is the point (docs/decisions/0054).
    return (
      decodeURIComponent(rawPath) === undefined ||
      !URL.canParse(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`)
    );
  } catch {
    return true;
  }
}

/** The listener over a loaded build (server/app-build.ts). */
export function createServerListener(
  loaded: LoadedBuild,
  { isDraining = () => false, log, tracer }: ListenerOptions = {},
): RequestListener {
  const {
    build,
    createRequestListener,
    createLoadContext,
    staticFileHeaders,
    sharedPathHeaders,
    strictTransportSecurity,
  } = loaded;
  const limits = limitsOf(loaded.settings);
  const serveClientFile = clientFiles(loaded.buildDir, staticFileHeaders);
  // The observation reaches the app's load context by hand: the adapter calls getLoadContext before
  // its first await, so within app(req, res) below (tests/api/metrics.test.ts holds it to that).
  let handedOver: RequestObservation | undefined;
  const app = createRequestListener({
    build,
    mode: "production",
    getLoadContext: (request, client) => {
      const observation = handedOver;
      handedOver = undefined;
      return createLoadContext(request, client, observation);
    },
  });

  return function listener(req, res) {
    const observation = beginObservation(req, res, loaded.observability);
    if (log) logRequest(req, res, log, observation);
    if (isDraining()) res.setHeader("Connection", "close");
    // HSTS on every answer (client files, refusals, the app's) when PUBLIC_URL is https or a trusted proxy says so.
    const forwardedProto = req.headers["x-forwarded-proto"];
    const hsts = strictTransportSecurity(
      Array.isArray(forwardedProto) ? forwardedProto.join(", ") : forwardedProto,
      req.socket.remoteAddress,
    );
    if (hsts) res.setHeader("Strict-Transport-Security", hsts);
    const rawPath = pathOf(req);
    // Under /s/ the server's own answers (405, 400, 408) carry the shared page's headers too, as the app's do.
    const shared = sharedPathHeaders(rawPath);
    const headers = shared ? { ...staticFileHeaders, ...shared } : staticFileHeaders;
    // What would otherwise be a 500 or an answer of the wrong shape: a method the Fetch API cannot
    // carry (TRACE) or that no route serves (PROPFIND), and a path or Host that does not parse.
    if (!SUPPORTED_METHODS.includes(req.method ?? ""))
      return refuse(res, headers, rawPath, 405, "Method not allowed", "Method Not Allowed");
    if (malformed(req, rawPath))
      return refuse(res, headers, rawPath, 400, "Malformed URL: bad percent-escape in the path", "Bad Request");
    // React Router answers OPTIONS on a page (and its .data) itself, before any middleware runs.
    if (shared && req.method === "OPTIONS")
      return refuse(res, { ...headers, Allow: "GET, HEAD" }, rawPath, 405, "Method not allowed", "Method Not Allowed");
    holdToDeadline(req, res, { deadlineMs: limits.requestDeadlineMs, limits, headers });
    res.once("finish", () => discardUnreadBody(req, limits));
    const run = () => {
      handedOver = observation;
      // An answer whose body fails after its head went out (the store failing mid-download): the
      // adapter logs the error, then its try at a 500 on top throws; cut the connection instead, so
      // the client sees an incomplete answer, and nothing is left unhandled to end the process.
      // (The adapter's listener is async, though typed as node:http's RequestListener.)
      const answered = app(req, res) as unknown as Promise<void>;
      handedOver = undefined;
      void answered.catch(() => res.destroy());
    };
    const toApp = () => {
      compressPages(req, res);
      if (tracer) tracer.traceRequest(req, res, observation, run);
      else run();
    };
    if (req.method === "GET" || req.method === "HEAD") serveClientFile(req, res, toApp);
    else toApp();
  };
}
