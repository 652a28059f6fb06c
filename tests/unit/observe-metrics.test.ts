import { describe, expect, it } from "vitest";
import { noteAiProviderOutcome, recordAiRequest } from "~/lib/observe/ai-observations.server";
import {
  enableMetrics,
  httpRequestStarted,
  metricsContentType,
  metricsEnabled,
  metricsText,
  recordHttpRequest,
  recordShareOpen,
  recordUpload,
  recordVideoJobFinished,
  type MetricsCollectors,
} from "~/lib/observe/metrics.server";

/** The exposition format's samples: name, labels and value of every line that is not a comment. */
function samples(text: string) {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

let videoAnswers: "ok" | "down" = "ok";
const collectors: MetricsCollectors = {
  dependencies: async () => ({ database: true, storage: false }),
  databasePool: () => ({ idle: 3, total: 5, max: 10, waiting: 2 }),
  videoJobs: async () =>
    videoAnswers === "ok"
      ? { byStatus: { starting: 0, queued: 2, processing: 1, finishing: 0 }, queueDepth: 2, oldestWaitingSeconds: 42 }
      : null,
  aiProviders: () => [
    { capability: "chat", provider: "openai-compatible:acme-internal-chat-v7" },
    { capability: "video", provider: "offline" },
  ],
};

describe("the metrics (app/lib/observe/metrics.server.ts)", () => {
  it("are off until enabled: nothing is recorded and the text is empty", async () => {
    expect(metricsEnabled()).toBe(false);
    httpRequestStarted("GET", "http");
    recordHttpRequest({ method: "GET", route: "/", status: 200, scheme: "http", aborted: false, seconds: 0.01 });
    expect(await metricsText()).toBe("");
  });

  it("name requests as OpenTelemetry's conventions do, with bounded labels", async () => {
    await enableMetrics(collectors);
    expect(metricsEnabled()).toBe(true);
    expect(metricsContentType()).toMatch(/^text\/plain; version=0\.0\.4/);
    const record = (method: string, route: string | undefined, status: number | undefined, aborted = false) => {
      httpRequestStarted(method, "https");
      recordHttpRequest({ method, route, status, scheme: "https", aborted, seconds: 0.03 });
    };
    record("GET", "/content/:id", 200);
    record("PROPFIND", undefined, 405);
    record("POST", "/api/content", 503);
    record("GET", "/api/content/:id/versions", undefined, true);
    const counts = samples(await metricsText()).filter((s) => s.name === "http_server_request_duration_seconds_count");
    expect(counts.map((s) => s.labels)).toEqual(
      expect.arrayContaining([
        {
          http_request_method: "GET",
          http_route: "/content/:id",
          http_response_status_code: "200",
          url_scheme: "https",
        },
        { http_request_method: "_OTHER", http_response_status_code: "405", url_scheme: "https" },
        {
          http_request_method: "POST",
          http_route: "/api/content",
          http_response_status_code: "503",
          url_scheme: "https",
          error_type: "503",
        },
        {
          http_request_method: "GET",
          http_route: "/api/content/:id/versions",
          url_scheme: "https",
          error_type: "aborted",
        },
      ]),
    );
    const buckets = samples(await metricsText())
      .filter((s) => s.name === "http_server_request_duration_seconds_bucket" && s.labels.http_route === "/content/:id")
      .map((s) => s.labels.le);
    expect(buckets).toEqual([
      "0.005",
      "0.01",
      "0.025",
      "0.05",
      "0.075",
      "0.1",
      "0.25",
      "0.5",
      "0.75",
      "1",
      "2.5",
      "5",
      "7.5",
      "10",
      "+Inf",
    ]);
    // Every request counted in is counted out.
    const active = samples(await metricsText()).filter((s) => s.name === "http_server_active_requests");
    expect(active.every((s) => s.value === 0)).toBe(true);
  });

  it("read the dependencies, the pool and the video queue when scraped", async () => {
    const all = samples(await metricsText());
    const value = (name: string, labels: Record<string, string> = {}) =>
      all.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value("studio_dependency_up", { dependency: "database" })).toBe(1);
    expect(value("studio_dependency_up", { dependency: "storage" })).toBe(0);
    // Providers are named by kind: no model name reaches a label.
    expect(value("studio_dependency_up", { dependency: "ai", capability: "chat", provider: "openai-compatible" })).toBe(
      1,
    );
    expect(all.some((s) => Object.values(s.labels).some((v) => v.includes("acme")))).toBe(false);
    expect(value("db_client_connection_count", { db_client_connection_state: "idle" })).toBe(3);
    expect(value("db_client_connection_count", { db_client_connection_state: "used" })).toBe(2);
    expect(value("db_client_connection_max", { db_client_connection_pool_name: "studio" })).toBe(10);
    expect(value("db_client_connection_pending_requests")).toBe(2);
    expect(value("studio_video_jobs", { status: "queued" })).toBe(2);
    expect(value("studio_video_queue_depth")).toBe(2);
    expect(value("studio_video_queue_oldest_waiting_seconds")).toBe(42);
    for (const name of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_p99_seconds",
    ])
      expect(
        all.some((s) => s.name === name),
        name,
      ).toBe(true);
  });

  it("an AI provider is down after a timeout and up after an answer; calls are timed by outcome", async () => {
    recordAiRequest("chat", "openai-compatible", "timeout", 30);
    noteAiProviderOutcome("chat", "openai-compatible", "timeout");
    const down = samples(await metricsText());
    expect(down.find((s) => s.name === "studio_dependency_up" && s.labels.capability === "chat")?.value).toBe(0);
    expect(
      down.find((s) => s.name === "studio_ai_request_duration_seconds_count" && s.labels.outcome === "timeout")?.value,
    ).toBe(1);
    noteAiProviderOutcome("chat", "openai-compatible", "rejected");
    noteAiProviderOutcome("chat", "openai-compatible", "ok");
    const up = samples(await metricsText());
    expect(up.find((s) => s.name === "studio_dependency_up" && s.labels.capability === "chat")?.value).toBe(1);
  });

  it("count uploads, share opens and finished video jobs", async () => {
    recordUpload("voice", "stored", 1000);
    recordUpload("video", "too_large", 0);
    recordShareOpen("content", "shown");
    recordVideoJobFinished("completed");
    const all = samples(await metricsText());
    const find = (name: string, labels: Record<string, string>) =>
      all.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(find("studio_uploads_total", { kind: "voice", outcome: "stored" })).toBe(1);
    expect(find("studio_upload_bytes_total", { kind: "voice", outcome: "stored" })).toBe(1000);
    expect(find("studio_uploads_total", { kind: "video", outcome: "too_large" })).toBe(1);
    expect(find("studio_share_opens_total", { kind: "content", outcome: "shown" })).toBe(1);
    expect(find("studio_video_jobs_finished_total", { status: "completed" })).toBe(1);
  });

  it("a database that does not answer leaves the scrape without video gauges", async () => {
    videoAnswers = "down";
    // The last answer is kept for a few seconds; a scrape after that has none.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    const all = samples(await metricsText());
    expect(all.some((s) => s.name.startsWith("studio_video_queue"))).toBe(false);
    expect(all.some((s) => s.name === "studio_video_jobs")).toBe(false);
    expect(all.some((s) => s.name === "studio_dependency_up")).toBe(true);
  });
});
