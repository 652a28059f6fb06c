// Traces, when an operator asks for them with OTEL_EXPORTER_OTLP_ENDPOINT (docs/decisions/0089): the
// OpenTelemetry Node SDK, loaded only then (nothing of it is imported otherwise: a studio without
// traces loads none of it), exporting over OTLP/HTTP in batches. The front door makes one SERVER span
// per request the app answers; the app's own spans (SQL, the store, AI calls) are its children,
// made by app/lib/observe/trace.server.ts with the API handed over here. The SDK reads its own
// OTEL_* variables (the endpoint, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, ...).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { LoadedBuild } from "./app-build";
import type { RequestObservation } from "./observe";
import { pathOf } from "./refusal";

export interface Tracing {
  /**
   * Runs `run` (the hand-over to the app) inside the request's SERVER span, which ends when the
   * answer's connection lets go of it, named `{METHOD} {route}` by then.
   */
  traceRequest(req: IncomingMessage, res: ServerResponse, observation: RequestObservation, run: () => void): void;
  /** Sends the spans still held (before the process ends). */
  forceFlush(): Promise<void>;
  /** Sends them and stops exporting. */
  shutdown(): Promise<void>;
}

/** Loads the SDK, registers it (its context manager, W3C propagation) and hands its API to the app. */
export async function startTracing(loaded: Pick<LoadedBuild, "observability">): Promise<Tracing> {
  const [node, otlp, resources, api] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/api"),
  ]);
  const { observability } = loaded;
  // The app's tracer resolves to the provider registered just below (the API's proxy tracer).
  const hooks = observability.installTracing(api);
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, when set, win over these.
  const resource = resources
    .defaultResource()
    .merge(
      resources.resourceFromAttributes({
        "service.name": "creative-ai-studio",
        "service.version": hooks.version,
        "service.instance.id": hooks.instanceId,
      }),
    )
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new node.NodeTracerProvider({
    resource,
    // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT itself and posts JSON to its /v1/traces.
    spanProcessors: [new node.BatchSpanProcessor(new otlp.OTLPTraceExporter())],
  });
  provider.register();
  const tracer = api.trace.getTracer("creative-ai-studio", hooks.version);

  function traceRequest(req: IncomingMessage, res: ServerResponse, observation: RequestObservation, run: () => void) {
    const method = req.method ?? "GET";
    const peer = req.socket.remoteAddress;
    // A caller's traceparent is taken only from a proxy TRUST_PROXY trusts; anyone else starts a trace.
    const parent = hooks.trustsPeer(peer) ? api.propagation.extract(api.ROOT_CONTEXT, req.headers) : api.ROOT_CONTEXT;
    const span = tracer.startSpan(
      method,
      {
        kind: api.SpanKind.SERVER,
        attributes: {
          "http.request.method": method,
          "url.scheme": observation.scheme ?? "http",
          // A share link's token masked as in the log; no query string (it may hold a token).
          "url.path": observability.maskedPath(pathOf(req)),
          "http.request.header.x-request-id": [observation.id],
        },
      },
      parent,
    );
    observation.span = span;
    res.once("close", () => {
      if (observation.route) {
        span.updateName(`${method} ${observation.route}`);
        span.setAttribute("http.route", observation.route);
      }
      if (res.headersSent) span.setAttribute("http.response.status_code", res.statusCode);
      const failure = !res.writableEnded ? "aborted" : res.statusCode >= 500 ? String(res.statusCode) : null;
      if (failure) {
        span.setAttribute("error.type", failure);
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      span.end();
    });
    api.context.with(api.trace.setSpan(parent, span), run);
  }

  return {
    traceRequest,
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
