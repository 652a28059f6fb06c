import { randomUUID } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchServer } from "../harness/launch.mjs";
import { freePort } from "../harness/nginx.mjs";
import { api, newUser, pollUntil, waitForVideoJob } from "../support/api";
import { startTestServer, type RunningServer } from "../support/server";

// The metrics for Prometheus (docs/decisions/0087): a server of its own with METRICS_PORT set, its
// /metrics read as Prometheus reads it.
let server: RunningServer;
let metricsUrl: string;

beforeAll(async () => {
  const port = await freePort();
  server = await startTestServer({ METRICS_PORT: String(port) });
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
});
afterAll(() => server?.stop());

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format: every sample (the lines that are not comments). */
function samplesOf(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const answer = await fetch(metricsUrl);
  expect(answer.status).toBe(200);
  const text = await answer.text();
  return { text, samples: samplesOf(text) };
}

/** The request-duration series (one per label set), as "name{labels}" keys. */
function requestSeries(samples: Sample[]): string[] {
  return samples
    .filter((sample) => sample.name === "http_server_request_duration_seconds_count")
    .map((sample) => JSON.stringify(Object.entries(sample.labels).sort()))
    .sort();
}

/** A sample's value for labels (all of them given: none more, none fewer); 0 before the series exists. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string>): number {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  return (
    samples.find((sample) => sample.name === name && JSON.stringify(Object.entries(sample.labels).sort()) === wanted)
      ?.value ?? 0
  );
}

/** A count of the request-duration histogram for labels (all of them given). */
const countOf = (samples: Sample[], labels: Record<string, string>) =>
  valueOf(samples, "http_server_request_duration_seconds_count", labels);

/** A raw request by node:http (methods fetch refuses). */
function send(base: string, method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(base + path, { method }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("metrics for Prometheus", () => {
  it("/metrics only on METRICS_HOST:METRICS_PORT, off when unset; public /metrics is 404", async () => {
    const answer = await fetch(metricsUrl);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await answer.text()).toContain("# TYPE http_server_request_duration_seconds histogram");
    const head = await fetch(metricsUrl, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const base = new URL(metricsUrl).origin;
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics/x`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: "POST" })).status).toBe(404);
    // The public port has no metrics: /metrics is the catch-all route's 404.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    // Unset, nothing listens and nothing is said of metrics.
    let output = "";
    const plain = await launchServer({ onOutput: (text) => (output += text), timeoutMs: 120_000 });
    try {
      expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
      expect(output).not.toContain("metrics for Prometheus");
    } finally {
      await plain.stop();
    }
  });

  it("200 different ids (/api/content/{id}, /content/{id}, /media/{id}, /s/{token}, /x-{uuid}) add no series and never appear in /metrics", async () => {
    const { token } = await newUser("metrics-ids", server.url);
    // Each kind of path, and the route it must be counted under whatever its id.
    const kinds: [(id: string) => string, string][] = [
      [(id) => `/api/content/${id}`, "/api/content/:id"],
      [(id) => `/content/${id}`, "/content/:id"],
      [(id) => `/media/${id}`, "/media/:id"],
      [(id) => `/s/${id}`, "/s/:token"],
      [(id) => `/x-${id}`, "/*"],
    ];
    const routes = kinds.map(([, route]) => route);
    /** Every request counted under `route`, whatever its status. */
    const countUnder = (samples: Sample[], route: string) =>
      samples
        .filter((s) => s.name === "http_server_request_duration_seconds_count" && s.labels.http_route === route)
        .reduce((sum, s) => sum + s.value, 0);
    /** One request per id, each id its own path; 20 at a time. */
    const sendEach = async (requests: string[]) => {
      for (let at = 0; at < requests.length; at += 20)
        await Promise.all(requests.slice(at, at + 20).map((path) => api(path, { token, server: server.url })));
    };
    // Every kind once, so that its series exist.
    await sendEach(kinds.map(([pathOf]) => pathOf(randomUUID())));
    const settled = (samples: Sample[], expected: number[]) =>
      routes.every((route, i) => countUnder(samples, route) >= expected[i]);
    const once = routes.map(() => 1);
    const { samples: before } = await pollUntil(scrape, ({ samples }) => settled(samples, once), { timeoutMs: 10_000 });
    const seriesBefore = requestSeries(before);
    // The routes' series exist: the label is the pattern, not missing.
    for (const route of routes) expect(countUnder(before, route), route).toBeGreaterThanOrEqual(1);

    // 200 ids, none sent before: 40 of each kind.
    const ids = Array.from({ length: 200 }, () => randomUUID());
    await sendEach(ids.map((id, i) => kinds[i % kinds.length][0](id)));
    const expected = routes.map((route) => countUnder(before, route) + 40);
    const after = await pollUntil(scrape, ({ samples }) => settled(samples, expected), { timeoutMs: 10_000 });
    // Each request counted once, under its route's pattern...
    routes.forEach((route, i) => expect(countUnder(after.samples, route), route).toBe(expected[i]));
    // ...and not one series more: 200 ids, the same bounded set of label values.
    const seriesAfter = requestSeries(after.samples);
    expect(seriesAfter.length).toBe(seriesBefore.length);
    expect(seriesAfter).toEqual(seriesBefore);
    for (const id of ids) expect(after.text).not.toContain(id);
    expect(after.text).not.toContain(token);
  });

  it("semconv names and labels; default metrics; studio_dependency_up", async () => {
    expect((await api("/api/health", { server: server.url })).status).toBe(200);
    expect(await send(server.url, "PROPFIND", "/api/health")).toBe(405);
    expect((await fetch(`${server.url}/favicon.ico`)).status).toBe(200);
    const health = { http_request_method: "GET", http_route: "/api/health", url_scheme: "http" };
    // What React Router never saw has no route: an unknown method (`_OTHER`), a client file.
    const unrouted = (samples: Sample[], labels: Record<string, string>) =>
      countOf(samples, { ...labels, url_scheme: "http" });
    const seen = (samples: Sample[]) =>
      countOf(samples, { ...health, http_response_status_code: "200" }) > 0 &&
      unrouted(samples, { http_request_method: "_OTHER", http_response_status_code: "405" }) >= 1 &&
      unrouted(samples, { http_request_method: "GET", http_response_status_code: "200" }) >= 1;
    // Counted when the server lets go of each answer, which the client may see first: scrape until all show.
    const { text, samples } = await pollUntil(scrape, ({ samples }) => seen(samples), { timeoutMs: 10_000 });
    expect(text).toContain("# TYPE http_server_request_duration_seconds histogram");
    expect(text).toContain("# TYPE http_server_active_requests gauge");
    expect(countOf(samples, { ...health, http_response_status_code: "200" })).toBeGreaterThan(0);
    // OpenTelemetry's bucket boundaries.
    const bounds = samples
      .filter((s) => s.name === "http_server_request_duration_seconds_bucket" && s.labels.http_route === "/api/health")
      .map((s) => s.labels.le);
    expect([...new Set(bounds)]).toEqual([
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
    expect(
      unrouted(samples, { http_request_method: "_OTHER", http_response_status_code: "405" }),
    ).toBeGreaterThanOrEqual(1);
    expect(unrouted(samples, { http_request_method: "GET", http_response_status_code: "200" })).toBeGreaterThanOrEqual(
      1,
    );
    // Node's and the process's own.
    for (const name of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_heap_size_used_bytes",
    ])
      expect(
        samples.some((s) => s.name === name),
        name,
      ).toBe(true);
    expect(text).toContain("# TYPE nodejs_gc_duration_seconds histogram");
    // The dependencies as the health check sees them, and each AI capability's provider (by kind).
    const up = (labels: Record<string, string>) =>
      samples.find(
        (s) => s.name === "studio_dependency_up" && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      )?.value;
    expect(up({ dependency: "database" })).toBe(1);
    expect(up({ dependency: "storage" })).toBe(1);
    expect(up({ dependency: "ai", capability: "chat" })).toBe(1);
    // The video queue, read from the shared database; the pool's gauges on PostgreSQL only.
    expect(samples.find((s) => s.name === "studio_video_queue_depth")?.value).toBeGreaterThanOrEqual(0);
    expect(samples.some((s) => s.name === "studio_video_jobs" && s.labels.status === "queued")).toBe(true);
    const engine = (await api("/api/health", { server: server.url })).body.database_engine;
    const pool = samples.filter((s) => s.name === "db_client_connection_count");
    if (engine === "postgres") {
      expect(pool.map((s) => s.labels.db_client_connection_state).sort()).toEqual(["idle", "used"]);
      expect(pool.every((s) => s.labels.db_client_connection_pool_name === "studio")).toBe(true);
      expect(samples.find((s) => s.name === "db_client_connection_max")?.value).toBeGreaterThan(0);
    } else expect(pool).toEqual([]);
  });

  it("the route label comes from the pattern (handoff pinned)", async () => {
    const { token } = await newUser("metrics-routes", server.url);
    const id = randomUUID();
    // Each path and the pattern it must be counted under (unmatched ones under the catch-alls).
    const requests: [string, string][] = [
      [`/api/content/${id}`, "/api/content/:id"],
      [`/api/content/${id}/versions`, "/api/content/:id/versions"],
      [`/content/${id}/history`, "/content/:id/history"],
      [`/s/${id}`, "/s/:token"],
      [`/x-${id}`, "/*"],
      [`/api/x-${id}`, "/api/*"],
      ["/", "/"],
    ];
    const { samples: before } = await scrape();
    const statuses: number[] = [];
    for (const [path] of requests) statuses.push((await api(path, { token, server: server.url })).status);
    const labelsOf = (i: number) => ({
      http_request_method: "GET",
      http_route: requests[i][1],
      http_response_status_code: String(statuses[i]),
      url_scheme: "http",
    });
    const counted = (samples: Sample[], i: number) => countOf(samples, labelsOf(i)) - countOf(before, labelsOf(i));
    // Counted when the server lets go of each answer, which the client may see first: scrape until all show.
    const { samples: after } = await pollUntil(
      () => scrape(),
      ({ samples }) => requests.every((_, i) => counted(samples, i) >= 1),
      { timeoutMs: 10_000 },
    );
    requests.forEach(([path], i) => expect(counted(after, i), path).toBe(1));
  });

  it("a video job counts once in studio_video_jobs_finished_total when it ends, by its final status", async () => {
    const { token } = await newUser("metrics-video", server.url);
    const finished = (samples: Sample[], status: string) =>
      valueOf(samples, "studio_video_jobs_finished_total", { status });
    const { samples: before } = await scrape();
    // The offline renderer takes seconds: one job is left to complete, the other cancelled at once.
    const kept = await api("/api/aivideo/", { token, server: server.url, json: { prompt: "Gauges at dawn" } });
    const dropped = await api("/api/aivideo/", { token, server: server.url, json: { prompt: "Never rendered" } });
    expect([kept.status, dropped.status]).toEqual([202, 202]);
    const cancel = await api(`/api/aivideo/${dropped.body.id}/cancel`, { token, server: server.url, method: "POST" });
    expect(cancel.status).toBe(200);
    expect(await waitForVideoJob(token, kept.body.id, 240_000, server.url)).toMatchObject({ status: "completed" });
    // The runner counts just after it writes the job's end, which the status may show first: scrape until it shows.
    const after = (
      await pollUntil(
        () => scrape(),
        ({ samples }) => finished(samples, "completed") > finished(before, "completed"),
        { timeoutMs: 10_000 },
      )
    ).samples;
    expect(finished(after, "completed") - finished(before, "completed")).toBe(1);
    // The cancel is counted where it happens; the runner, finding the job ended, counts nothing more.
    expect(finished(after, "cancelled") - finished(before, "cancelled")).toBe(1);
    for (const status of ["error", "timeout"]) expect(finished(after, status) - finished(before, status)).toBe(0);
    // The render is one AI request, timed as the other capabilities' are (the provider by its kind).
    const renders = (samples: Sample[]) =>
      samples
        .filter(
          (s) =>
            s.name === "studio_ai_request_duration_seconds_count" &&
            s.labels.capability === "video" &&
            s.labels.outcome === "ok",
        )
        .reduce((sum, s) => sum + s.value, 0);
    expect(renders(after) - renders(before)).toBe(1);
  }, 300_000);

  it("opening a share link counts in studio_share_opens_total, by what it shares and what the visitor got", async () => {
    const owner = await newUser("metrics-shares", server.url);
    const call = (
      path: string,
      init: { token?: string; json?: unknown; method?: string; headers?: Record<string, string> } = {},
    ) => api(path, { ...init, server: server.url });
    const item = await call("/api/content", { token: owner.token, json: { title: "Counted", body: "Opened twice" } });
    expect(item.status).toBe(201);
    const made = await call("/api/shares", { token: owner.token, json: { kind: "content", id: item.body.id } });
    expect(made.status).toBe(201);
    const link = new URL(made.body.url as string).pathname;
    const opens = (samples: Sample[], kind: string, outcome: string) =>
      valueOf(samples, "studio_share_opens_total", { kind, outcome });
    const { samples: before } = await scrape();
    expect((await call(link)).status).toBe(200);
    expect((await call(link)).status).toBe(200);
    expect((await call(`/s/${randomUUID()}`)).status).toBe(404);
    // One address past its budget (loopback is never counted; the test server trusts it as a proxy).
    const from = { headers: { "X-Forwarded-For": "203.0.113.48" } };
    let missing = 1;
    let status = 0;
    while (status !== 429 && missing < 500) {
      status = (await call(`/s/${randomUUID()}`, from)).status;
      if (status === 404) missing++;
      else expect(status).toBe(429);
    }
    expect((await call(`/api/shares/${made.body.id}`, { token: owner.token, method: "DELETE" })).status).toBe(204);
    expect((await call(link)).status).toBe(410);
    const { samples: after } = await scrape();
    const delta = (kind: string, outcome: string) => opens(after, kind, outcome) - opens(before, kind, outcome);
    expect(delta("content", "shown")).toBe(2);
    expect(delta("none", "missing")).toBe(missing);
    expect(delta("none", "limited")).toBe(1);
    expect(delta("none", "gone")).toBe(1);
  });
});
