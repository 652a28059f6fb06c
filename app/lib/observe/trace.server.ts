import type * as OtelApi from "@opentelemetry/api";
import { isTrustedPeer } from "~/lib/http/client-address.server";
import { instanceIdFor } from "~/lib/storage/storage.server";
import { env } from "~/lib/settings/env.server";
import packageJson from "../../../package.json";

/**
 * Spans for the traces an operator asks for with OTEL_EXPORTER_OTLP_ENDPOINT (docs/decisions/0089).
 * The app imports no OpenTelemetry code: the front door (server/tracing.ts) loads the SDK only then
 * and hands its API in with installTracing. Until that happens every helper here is a plain call:
 * `withSpan` calls its work directly and `openSpan` answers null, so traces cost nothing when off.
 * The request's own SERVER span is the front door's; these are its children (SQL, the store, AI).
 */
export type TraceApi = typeof OtelApi;
export type SpanAttributes = OtelApi.Attributes;
export type SpanKindName = "internal" | "client";

export interface SpanOptions {
  /** Default "internal". */
  kind?: SpanKindName;
  /** Only inside another span (a request's, a job's): health probes and metric scrapes make no traces. */
  childOnly?: boolean;
  /**
   * A trace of its own, whatever span is active: background work (a video job) may run on timers
   * first set while a request was answered, whose context they carry.
   */
  root?: boolean;
}

/** What a span's work may say about itself as it goes. */
export interface SpanNotes {
  /** Adds attributes. */
  set(attributes: SpanAttributes): void;
  /** Marks the span failed, with `error.type` (a short, bounded reason: never a message). */
  fail(type: string): void;
}

/** A span that ends when its work says so (a stream read after the call returned). */
export interface OpenSpan extends SpanNotes {
  end(): void;
}

/** What the front door's SERVER span takes from the app (server/tracing.ts). */
export interface TracingHooks {
  /** `service.instance.id` and `service.version` of the resource. */
  instanceId: string;
  version: string;
  /** Whether a peer's `traceparent` counts: a proxy TRUST_PROXY trusts. */
  trustsPeer(address: string | undefined): boolean;
}

const NO_NOTES: SpanNotes = { set() {}, fail() {} };
const TRACER_NAME = "creative-ai-studio";

let otel: TraceApi | null = null;
let tracer: OtelApi.Tracer | null = null;

/**
 * Turns spans on with the SDK's API (the front door, after loading the SDK; the unit tests, with an
 * in-memory exporter). The database must be opened after this for its SQL spans (db.server.ts).
 */
export function installTracing(api: TraceApi): TracingHooks {
  otel = api;
  tracer = api.trace.getTracer(TRACER_NAME, packageJson.version);
  return { instanceId: instanceIdFor(env), version: packageJson.version, trustsPeer: isTrustedPeer };
}

/** Spans off again (tests). */
export function uninstallTracing(): void {
  otel = null;
  tracer = null;
}

/** Whether traces are on (OTEL_EXPORTER_OTLP_ENDPOINT set and the SDK loaded). */
export function tracingEnabled(): boolean {
  return tracer !== null;
}

/** A thrown value as `error.type`: its code when it has a short one (SQLSTATE, SQLITE_BUSY), else its class. */
export function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if ((typeof code === "string" && code.length <= 40) || typeof code === "number") return String(code);
  return (error as Error | null)?.name || "_OTHER";
}

interface TrackedSpan extends OpenSpan {
  /** Whether the work named its own failure (kept over the thrown value's class). */
  failed: boolean;
}

function notesOf(api: TraceApi, span: OtelApi.Span): TrackedSpan {
  const notes: TrackedSpan = {
    failed: false,
    set: (attributes) => void span.setAttributes(attributes),
    fail(type) {
      notes.failed = true;
      span.setAttribute("error.type", type);
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    },
    end: () => span.end(),
  };
  return notes;
}

const kindOf = (api: TraceApi, kind: SpanKindName) => (kind === "client" ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL);

/** The API while traces are on and the span may be made (a parent, when only a child may). */
function tracing(childOnly = false): TraceApi | null {
  if (!tracer || !otel) return null;
  return childOnly && !otel.trace.getSpan(otel.context.active()) ? null : otel;
}

/**
 * Runs `work` in a span named `name`, a child of the active one, ended when `work` returns or settles;
 * a throw or rejection marks it failed. With traces off: `work(no-op notes)`, nothing more.
 */
export function withSpan<T>(
  name: string,
  attributes: SpanAttributes,
  work: (notes: SpanNotes) => T,
  { kind = "internal", childOnly = false, root = false }: SpanOptions = {},
): T {
  const api = tracing(childOnly);
  if (!api || !tracer) return work(NO_NOTES);
  const parent = root ? api.trace.deleteSpan(api.context.active()) : api.context.active();
  return tracer.startActiveSpan(name, { kind: kindOf(api, kind), attributes }, parent, (span) => {
    const notes = notesOf(api, span);
    const failed = (error: unknown) => {
      if (!notes.failed) notes.fail(errorTypeOf(error));
      span.end();
    };
    let result: T;
    try {
      result = work(notes);
    } catch (error) {
      failed(error);
      throw error;
    }
    if (result instanceof Promise) {
      return result.then(
        (value) => (span.end(), value),
        (error: unknown) => {
          failed(error);
          throw error;
        },
      ) as T;
    }
    span.end();
    return result;
  });
}

/** A span the caller ends (`end()`), a child of the active one; null with traces off or no active span. */
export function openSpan(name: string, attributes: SpanAttributes, kind: SpanKindName = "internal"): OpenSpan | null {
  const api = tracing(true);
  if (!api || !tracer) return null;
  return notesOf(api, tracer.startSpan(name, { kind: kindOf(api, kind), attributes }, api.context.active()));
}

/**
 * A span for work that has just ended and took `durationMs` (a query Kysely timed), a child of the
 * active span; `errorType` marks it failed. Nothing with traces off or outside any span.
 */
export function recordSpan(
  name: string,
  attributes: SpanAttributes,
  durationMs: number,
  errorType?: string,
  kind: SpanKindName = "client",
): void {
  const api = tracing(true);
  if (!api || !tracer) return;
  // performance.now() stamps: the SDK places them on its clock, with sub-millisecond precision.
  const end = performance.now();
  const span = tracer.startSpan(
    name,
    { kind: kindOf(api, kind), attributes, startTime: end - durationMs },
    api.context.active(),
  );
  if (errorType) notesOf(api, span).fail(errorType);
  span.end(end);
}

/** `work` in a span that starts a trace of its own, whatever span is active (background work: a video job). */
export function withRootSpan<T>(name: string, work: () => T, attributes: SpanAttributes = {}): T {
  return withSpan(name, attributes, work, { root: true });
}
