import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";

/**
 * A stand-in OpenTelemetry collector on loopback: it takes OTLP/HTTP JSON (`POST /v1/traces`, what
 * @opentelemetry/exporter-trace-otlp-http sends) and keeps every span, its attributes flattened to
 * plain values. Point a server's OTEL_EXPORTER_OTLP_ENDPOINT at `url`.
 */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  /** OTLP's numbers: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  /** The resource's attributes (service.name, service.instance.id, ...). */
  resource: Record<string, unknown>;
}

export interface OtlpCollector {
  url: string;
  spans: CollectedSpan[];
  /** Every request body as received (decompressed): to search for what must never be exported. */
  bodies: string[];
  close(): Promise<void>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
export const STATUS_ERROR = 2;

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}
interface KeyValue {
  key: string;
  value: AnyValue;
}

function plain(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return null;
}

const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
        status?: { code?: number };
      }[];
    }[];
  }[];
}

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const bodies: string[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (req.headers["content-encoding"] === "gzip") body = zlib.gunzipSync(body);
    if (req.method !== "POST" || req.url !== "/v1/traces") {
      res.writeHead(404).end();
      return;
    }
    const text = body.toString("utf8");
    bodies.push(text);
    const request = JSON.parse(text) as ExportRequest;
    for (const resourceSpans of request.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            statusCode: span.status?.code ?? 0,
            resource,
          });
    }
    res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The spans under `root` in its trace (children, their children, ...). */
export function descendantsOf(spans: CollectedSpan[], root: CollectedSpan): CollectedSpan[] {
  const found: CollectedSpan[] = [];
  const parents = new Set([root.spanId]);
  for (let grew = true; grew;) {
    grew = false;
    for (const span of spans) {
      if (span.traceId !== root.traceId || !span.parentSpanId || parents.has(span.spanId)) continue;
      if (parents.has(span.parentSpanId)) {
        parents.add(span.spanId);
        found.push(span);
        grew = true;
      }
    }
  }
  return found;
}
