import type * as PromClient from "prom-client";
import { providerKindOf, setAiObserver, type AiOutcome } from "./ai-observations.server";
import { registerScrapeGauges, type MetricsCollectors } from "./scrape-gauges.server";

export type { MetricsCollectors, PoolStats, VideoJobCounts } from "./scrape-gauges.server";

/**
 * The studio's metrics for Prometheus (docs/decisions/0087, docs/operating.md "Observing it"). Kept
 * only when METRICS_PORT is set: `enableMetrics` loads prom-client then, so a studio without metrics
 * loads none of it, and every `record…` below is a no-op until then. Names follow OpenTelemetry's
 * HTTP semantic conventions in Prometheus's form (dots to underscores, the unit as a suffix). Every
 * label's values are bounded: route patterns, never paths; status codes; a few outcomes.
 */
type Prom = typeof PromClient;

/** OpenTelemetry's boundaries for http.server.request.duration (seconds). */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** AI calls take from a tenth of a second (a short chat answer) to minutes (an image on a slow server). */
export const AI_DURATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** HTTP methods by name; any other becomes `_OTHER`, as the conventions say. */
const KNOWN_METHODS = new Set("CONNECT DELETE GET HEAD OPTIONS PATCH POST PUT QUERY TRACE".split(" "));

export type UploadOutcome = "stored" | "too_large" | "too_slow" | "refused" | "unavailable";
export type ShareOpenKind = "content" | "file" | "project" | "none";
/** `refused`: a file asked for without its page's grant (403); `unavailable`: the store out of reach (503). */
export type ShareOpenOutcome = "shown" | "gone" | "missing" | "file" | "limited" | "refused" | "unavailable";

/** One answered request, as the front door saw it when its connection let go of it. */
export interface HttpRequestRecord {
  method: string;
  /** The route's pattern (`/content/:id`); none for client files and the front door's own answers. */
  route?: string;
  /** None when the connection closed before a head was sent. */
  status?: number;
  scheme: string;
  /** The connection closed before the answer ended. */
  aborted: boolean;
  seconds: number;
}

interface Instruments {
  registry: PromClient.Registry;
  httpDuration: PromClient.Histogram;
  activeRequests: PromClient.Gauge;
  dependencyUp: PromClient.Gauge;
  aiDuration: PromClient.Histogram;
  videoJobsFinished: PromClient.Counter;
  uploads: PromClient.Counter;
  uploadBytes: PromClient.Counter;
  shareOpens: PromClient.Counter;
}

let instruments: Instruments | null = null;
let enabling: Promise<void> | null = null;

export function metricsEnabled(): boolean {
  return instruments !== null;
}

/** Loads prom-client and makes the registry (once; later calls share the first). */
export function enableMetrics(collectors: MetricsCollectors): Promise<void> {
  enabling ??= load(collectors);
  return enabling;
}

/** The registry in Prometheus's text format ("" while metrics are off). */
export async function metricsText(): Promise<string> {
  return instruments ? instruments.registry.metrics() : "";
}

export function metricsContentType(): string {
  return instruments?.registry.contentType ?? "text/plain; version=0.0.4; charset=utf-8";
}

async function load(collectors: MetricsCollectors): Promise<void> {
  const module = (await import("prom-client")) as Prom & { default?: Prom };
  const prom = module.default ?? module;
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const dependencyUp = registerScrapeGauges(prom, registers, collectors);
  const made: Instruments = {
    registry,
    httpDuration: new prom.Histogram({
      name: "http_server_request_duration_seconds",
      help: "Duration of HTTP server requests (OpenTelemetry http.server.request.duration).",
      labelNames: ["http_request_method", "http_route", "http_response_status_code", "url_scheme", "error_type"],
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    }),
    activeRequests: new prom.Gauge({
      name: "http_server_active_requests",
      help: "Number of active HTTP server requests (OpenTelemetry http.server.active_requests).",
      labelNames: ["http_request_method", "url_scheme"],
      registers,
    }),
    dependencyUp,
    aiDuration: new prom.Histogram({
      name: "studio_ai_request_duration_seconds",
      help: "Duration of calls to AI providers, by capability, provider kind and outcome.",
      labelNames: ["capability", "provider", "outcome"],
      buckets: AI_DURATION_BUCKETS,
      registers,
    }),
    videoJobsFinished: new prom.Counter({
      name: "studio_video_jobs_finished_total",
      help: "AI video jobs this instance finished, by final status.",
      labelNames: ["status"],
      registers,
    }),
    uploads: new prom.Counter({
      name: "studio_uploads_total",
      help: "Uploads received, by kind and outcome.",
      labelNames: ["kind", "outcome"],
      registers,
    }),
    uploadBytes: new prom.Counter({
      name: "studio_upload_bytes_total",
      help: "Bytes of uploads received, by kind and outcome.",
      labelNames: ["kind", "outcome"],
      registers,
    }),
    shareOpens: new prom.Counter({
      name: "studio_share_opens_total",
      help: "Share links opened, by what they share and what the visitor got.",
      labelNames: ["kind", "outcome"],
      registers,
    }),
  };
  // Each provider counts as up until a call says otherwise.
  for (const { capability, provider } of collectors.aiProviders())
    made.dependencyUp.set({ dependency: "ai", capability, provider: providerKindOf(provider) }, 1);
  instruments = made;
  setAiObserver({ recordAiRequest, noteAiProviderOutcome });
}

/** Counts a request in http_server_active_requests until `recordHttpRequest` counts it out. */
export function httpRequestStarted(method: string, scheme: string): void {
  instruments?.activeRequests.inc({ http_request_method: methodLabel(method), url_scheme: scheme });
}

export function recordHttpRequest(record: HttpRequestRecord): void {
  if (!instruments) return;
  const method = methodLabel(record.method);
  instruments.activeRequests.dec({ http_request_method: method, url_scheme: record.scheme });
  const labels: Record<string, string | number> = { http_request_method: method, url_scheme: record.scheme };
  if (record.route) labels.http_route = record.route;
  if (record.status !== undefined) labels.http_response_status_code = record.status;
  if (record.aborted) labels.error_type = "aborted";
  else if (record.status !== undefined && record.status >= 500) labels.error_type = String(record.status);
  instruments.httpDuration.observe(labels, record.seconds);
}

function methodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : "_OTHER";
}

/**
 * One call to an AI provider, by capability, provider kind and outcome: the AI code tells
 * ai-observations.server.ts, which hands it here once the metrics are on.
 */
function recordAiRequest(capability: string, provider: string, outcome: AiOutcome, seconds: number): void {
  instruments?.aiDuration.observe({ capability, provider: providerKindOf(provider), outcome }, seconds);
}

/** A provider is down after `unavailable` or `timeout` and up again after `ok`; other outcomes say nothing of it. */
function noteAiProviderOutcome(capability: string, provider: string, outcome: AiOutcome): void {
  if (!instruments) return;
  const up = outcome === "ok" ? 1 : outcome === "unavailable" || outcome === "timeout" ? 0 : null;
  if (up !== null)
    instruments.dependencyUp.set({ dependency: "ai", capability, provider: providerKindOf(provider) }, up);
}

export function recordVideoJobFinished(status: string): void {
  instruments?.videoJobsFinished.inc({ status });
}

export function recordUpload(kind: string, outcome: UploadOutcome, bytes: number): void {
  if (!instruments) return;
  instruments.uploads.inc({ kind, outcome });
  if (bytes > 0) instruments.uploadBytes.inc({ kind, outcome }, bytes);
}

export function recordShareOpen(kind: ShareOpenKind, outcome: ShareOpenOutcome): void {
  instruments?.shareOpens.inc({ kind, outcome });
}
