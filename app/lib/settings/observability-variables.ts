import { httpUrl, named, oneOf, setting } from "./define";

/** The log's forms (LOG_FORMAT): lines for people, or JSON objects for a log tool. */
export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * How the studio is watched: Prometheus metrics on a port of their own, the log's form, and traces
 * sent to an OpenTelemetry collector (docs/operating.md "Observing it"). All off or plain by default.
 */
export const observabilityVariables = {
  METRICS_PORT: setting<number | null>(
    "a port number (0-65535)",
    (raw) => (/^\d{1,5}$/.test(raw) && Number(raw) <= 65535 ? Number(raw) : undefined),
    {
      default: null,
      shown: "off",
      example: "9464",
      description:
        "a second HTTP port that answers `GET /metrics` in Prometheus's text format (request durations by route, the dependencies, the database pool, the video queue, Node's own); unset, no metrics are kept and nothing listens. `0` takes any free port (the start line names it). The public port has no `/metrics`",
    },
  ),
  METRICS_HOST: named("an address", {
    default: "127.0.0.1",
    description:
      "the address the metrics port listens on: the metrics tell how the studio is used, so keep it on loopback or a private network only Prometheus reaches, never public",
  }),
  LOG_FORMAT: oneOf(LOG_FORMATS, {
    default: "text" as LogFormat,
    description:
      "`text`: the request log's lines end with the request id and errors are printed as Node prints them; `json`: one JSON object a line (request lines and errors, with `level`, `time`, `instance` and `request_id`) for a log tool. Share tokens, bearer tokens, passwords and query strings are masked in both. Another value stops the server at start",
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl({
    default: null,
    shown: "off",
    example: "http://localhost:4318",
    description:
      "an OpenTelemetry collector's OTLP/HTTP address: each request is then traced (its database queries, store operations and AI calls as child spans) and sent to `<address>/v1/traces`; unset, no tracing code is loaded. `OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_TRACES_SAMPLER` are read by the OpenTelemetry SDK itself",
  }),
} as const;
