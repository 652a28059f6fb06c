import { requestScheme } from "../http/client-address.server";
import { installConsole, logError, maskedPath, maskSecrets, writeRequestJson } from "./log.server";
import {
  enableMetrics,
  httpRequestStarted,
  metricsContentType,
  metricsEnabled,
  metricsText,
  recordHttpRequest,
  type MetricsCollectors,
} from "./metrics.server";
import { requestIdFor } from "./request-id.server";
import { installTracing, tracingEnabled, withSpan } from "./trace.server";

/**
 * What the front door (server/) uses of the app's observability: the build's entry exports it as
 * `observability` (server/app-build.ts), because the server imports no app code of its own. The
 * request id and the metrics (request-id.server.ts, metrics.server.ts), the log and its masking
 * (log.server.ts), and traces (trace.server.ts), whose SDK the server loads and hands over with
 * `installTracing`. The metrics' collectors read the domain, above this floor: app/entry.server.tsx
 * composes them in (app/services/operators/metrics-collectors.server.ts).
 */
export function observabilityWith(collectors: MetricsCollectors) {
  return {
    requestIdFor,
    requestScheme,
    /** Loads prom-client and starts keeping the metrics (METRICS_PORT set). */
    enableMetrics: () => enableMetrics(collectors),
    metricsEnabled,
    metricsText,
    metricsContentType,
    httpRequestStarted,
    recordHttpRequest,
    maskSecrets,
    maskedPath,
    writeRequestJson,
    logError,
    installConsole,
    installTracing,
    tracingEnabled,
    withSpan,
  };
}

export type Observability = ReturnType<typeof observabilityWith>;
