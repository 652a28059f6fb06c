// Each request's observation (docs/decisions/0087): its id, sent back as X-Request-Id on every answer
// (client files and the front door's own refusals too), and, with METRICS_PORT set, its duration in
// the metrics when its connection lets go of the answer. The app gets the observation through the load
// context (createLoadContext) and fills in the route's pattern (app/lib/observe/observe-middleware.server.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { LoadedBuild } from "./app-build";

export type Observability = LoadedBuild["observability"];
export type RequestObservation = NonNullable<Parameters<LoadedBuild["createLoadContext"]>[2]>;

function single(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

/**
 * The first thing done with a request. The id replaces any the client sent in the request's own
 * headers too, so the app reads the trusted one (node-fetch-server copies `req.headers` into the
 * Fetch request), and nothing a client wrote reaches a log line as an id.
 */
export function beginObservation(
  req: IncomingMessage,
  res: ServerResponse,
  observability: Observability,
): RequestObservation {
  const peer = req.socket.remoteAddress;
  const id = observability.requestIdFor(req.headers["x-request-id"], peer);
  res.setHeader("X-Request-Id", id);
  req.headers["x-request-id"] = id;
  const scheme = observability.requestScheme(single(req.headers["x-forwarded-proto"]), peer);
  const observation: RequestObservation = { id, startedAt: performance.now(), scheme };
  if (observability.metricsEnabled()) {
    const method = req.method ?? "GET";
    observability.httpRequestStarted(method, scheme);
    res.once("close", () =>
      observability.recordHttpRequest({
        method,
        route: observation.route,
        status: res.headersSent ? res.statusCode : undefined,
        scheme,
        aborted: !res.writableEnded,
        seconds: (performance.now() - observation.startedAt) / 1000,
      }),
    );
  }
  return observation;
}
