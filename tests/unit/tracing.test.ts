import fs from "node:fs";
import path from "node:path";
import * as api from "@opentelemetry/api";
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineOf } from "../../db/portable";
import { ProviderError } from "~/ai/errors.server";
import { aiProviders } from "~/ai/providers.server";
import { remoteJson } from "~/ai/remote-http.server";
import { closeDatabase, databasePoolStats, db, openDatabase, statementOf } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { providerKindOf, setAiObserver } from "~/lib/observe/ai-observations.server";
import {
  installTracing,
  openSpan,
  tracingEnabled,
  uninstallTracing,
  withRootSpan,
  withSpan,
} from "~/lib/observe/trace.server";
import { fileStore } from "~/lib/storage/storage.server";
import { createContent, getContent } from "~/models/content/content.server";
import { observedProviderCall, withProviderFailures } from "~/services/provider-failure.server";
import { sendJson, startStubServer } from "../support/ai-stub-server";
import { newUserId } from "../support/user-rows";

/**
 * Traces (docs/decisions/0089) with the SDK's in-memory exporter: the app's spans are children of
 * whatever span is active (the front door's SERVER span in production, a stand-in here), SQL spans
 * carry the statement's text without its parameters, and with traces off nothing is made at all.
 */
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === name);
const childrenOf = (parent: ReadableSpan) =>
  spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);

/** Every source file under `dir`. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.(ts|tsx)$/.test(entry.name) ? [file] : [];
  });
}

describe("nothing of OpenTelemetry is loaded unless traces are asked for", () => {
  it("the app imports its types only; the front door imports the SDK in server/tracing.ts, on demand", () => {
    const root = path.resolve(__dirname, "../..");
    // A value import, or a bare one (`import { type X }` is one too: verbatimModuleSyntax keeps it).
    const loads = (file: string) => {
      const text = fs.readFileSync(file, "utf8");
      return (
        /^\s*(import|export)\s+(?!type\b)[^;]*?from\s+["']@opentelemetry\//m.test(text) ||
        /^\s*import\s+["']@opentelemetry\//m.test(text)
      );
    };
    const offenders = [...sources(path.join(root, "app")), ...sources(path.join(root, "server"))]
      .filter(loads)
      .map((file) => path.relative(root, file));
    expect(offenders).toEqual([]);
    expect(fs.readFileSync(path.join(root, "server/index.ts"), "utf8")).toMatch(/await import\("\.\/tracing"\)/);
  });
});

describe("statementOf: a span's name from the SQL", () => {
  it.each([
    ['select "id", "title" from "content_items" where "user_id" = ?', "SELECT", "content_items"],
    [
      'insert into "instances" ("id") values ($1) on conflict ("id") do update set "seen_at" = $2',
      "INSERT",
      "instances",
    ],
    ['update "users" set "last_seen_at" = ? where "id" = ?', "UPDATE", "users"],
    ['delete from "shares" where "id" in (select "id" from "users")', "DELETE", "shares"],
    ['select (select count(*) from "ai_requests" where x) as "today" from "users"', "SELECT", "users"],
    ["select 1", "SELECT", null],
    ["begin", "BEGIN", null],
  ])("%s", (text, operation, table) => {
    expect(statementOf(text)).toEqual({ operation, table });
  });
});

describe("traces off (no OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  it("withSpan is the work itself, openSpan is null, queries make nothing", async () => {
    expect(tracingEnabled()).toBe(false);
    let notesSeen = false;
    const result = withSpan("GET /content/:id", { a: 1 }, (notes) => {
      notes.set({ b: 2 });
      notes.fail("x");
      notesSeen = true;
      return 42;
    });
    expect(result).toBe(42);
    expect(notesSeen).toBe(true);
    expect(openSpan("store open", {})).toBeNull();
    const userId = await newUserId();
    await withSpan("GET /content/:id", {}, () => getContent(userId, "nothing-here"));
    expect(spans()).toEqual([]);
    // The pool's gauges: PostgreSQL's pool only.
    if (engineOf(db) === "postgres") expect(databasePoolStats()).toMatchObject({ max: expect.any(Number) });
    else expect(databasePoolStats()).toBeNull();
  });
});

describe("traces on", () => {
  const system = () => (engineOf(db) === "postgres" ? "postgresql" : "sqlite");

  beforeAll(async () => {
    provider.register();
    installTracing(api);
    // The log hook is chosen when the database opens: opened again, now with tracing on.
    await closeDatabase();
    await openDatabase();
  });
  afterAll(async () => {
    uninstallTracing();
    setAiObserver(null);
    await provider.shutdown();
  });

  it("a model call inside a request's span: its SQL as children, named by statement, without parameters", async () => {
    const userId = await newUserId();
    const item = await createContent(userId, { title: "Secret title 7d1f", body: "secret body 7d1f" });
    exporter.reset();
    const found = await withSpan("GET /content/:id", { "http.route": "/content/:id" }, () =>
      getContent(userId, item.id),
    );
    expect(found?.id).toBe(item.id);
    const [request] = named("GET /content/:id");
    const queries = childrenOf(request).filter((span) => span.name === "SELECT content_items");
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.spanContext().traceId).toBe(request.spanContext().traceId);
      expect(query.kind).toBe(api.SpanKind.CLIENT);
      expect(query.attributes).toMatchObject({
        "db.system.name": system(),
        "db.operation.name": "SELECT",
        "db.collection.name": "content_items",
      });
      expect(query.attributes["db.query.text"]).toMatch(/^select .* from "content_items"/);
    }
    // Placeholders only: no id, no text of the person's ever reaches a span.
    const exported = JSON.stringify(spans().map((span) => span.attributes));
    for (const secret of [userId, item.id, "Secret title", "secret body"]) expect(exported).not.toContain(secret);
  });

  it("a failed query is a failed span with the engine's error code", async () => {
    exporter.reset();
    await expect(
      withSpan("GET /broken", {}, () => sql`select * from no_such_table_here`.execute(db)),
    ).rejects.toThrow();
    const [query] = spans().filter((span) => span.name === "SELECT no_such_table_here");
    expect(query.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(query.attributes["error.type"]).toMatch(engineOf(db) === "postgres" ? /^42P01$/ : /^SQLITE_ERROR$/);
    expect(named("GET /broken")[0].status.code).toBe(api.SpanStatusCode.ERROR);
  });

  it("queries outside any span make none (health probes, metric scrapes)", async () => {
    exporter.reset();
    await sql`select 1`.execute(db);
    expect(spans()).toEqual([]);
  });

  it("background work started inside a request gets a trace of its own", async () => {
    exporter.reset();
    await withSpan("GET /api/health", {}, () =>
      withRootSpan("video job", () => withSpan("SELECT video_jobs", {}, async () => {})),
    );
    const [request] = named("GET /api/health");
    const [job] = named("video job");
    expect(job.parentSpanContext).toBeUndefined();
    expect(job.spanContext().traceId).not.toBe(request.spanContext().traceId);
    expect(named("SELECT video_jobs")[0].parentSpanContext?.spanId).toBe(job.spanContext().spanId);
  });

  it("the store's calls are `store {op}` spans; a read lasts until its stream closes", async () => {
    exporter.reset();
    await withSpan("GET /media/:id", {}, async () => {
      expect(await fileStore.stat("NoSuchKey0123")).toBeNull();
      const stream = fileStore.open("NoSuchKey0123");
      await new Promise<void>((resolve) =>
        stream
          .once("close", resolve)
          .once("error", () => {})
          .resume(),
      );
    });
    const [request] = named("GET /media/:id");
    const [stat] = named("store stat");
    const [open] = named("store open");
    expect(stat.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(stat.attributes).toEqual({ "studio.store.kind": "file" });
    expect(open.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(open.status.code).toBe(api.SpanStatusCode.ERROR);
  });

  it("an AI call is an `ai {capability}` span with the provider's kind and outcome, and tells the metrics' hooks", async () => {
    const told: unknown[][] = [];
    setAiObserver({
      recordAiRequest: (...args) => void told.push(["request", ...args]),
      noteAiProviderOutcome: (...args) => void told.push(["provider", ...args]),
    });
    exporter.reset();
    const chat = aiProviders().chat;
    expect(chat.offline).toBe(true);
    await withProviderFailures("chat", () => chat.reply("How do I use the Drawing Pad?"), chat.id);
    const kind = providerKindOf(chat.id);
    const [offline] = named("ai chat");
    expect(offline.attributes).toEqual({
      "studio.ai.capability": "chat",
      "studio.ai.provider": kind,
      "studio.ai.outcome": "ok",
    });
    expect(offline.status.code).toBe(api.SpanStatusCode.UNSET);
    expect(told).toEqual([
      ["request", "chat", kind, "ok", expect.any(Number)],
      ["provider", "chat", kind, "ok"],
    ]);

    told.length = 0;
    const model = "openai-compatible:acme-internal-image-v7";
    const failed = withProviderFailures(
      "image",
      () => Promise.reject(new ProviderError("image", model, "timeout")),
      model,
    );
    await expect(failed).rejects.toBeInstanceOf(DomainError);
    const [image] = named("ai image");
    expect(image.attributes).toMatchObject({
      "studio.ai.provider": "openai-compatible",
      "studio.ai.outcome": "timeout",
      "error.type": "timeout",
    });
    expect(image.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(told).toEqual([
      ["request", "image", "openai-compatible", "timeout", expect.any(Number)],
      ["provider", "image", "openai-compatible", "timeout"],
    ]);
    // The model a provider's id names stays out of every span.
    expect(JSON.stringify(spans().map((span) => span.attributes))).not.toContain("acme-internal");
  });

  it("the video runner's render: an `ai video` span and the metrics' hooks, its ProviderError passed on as it is", async () => {
    const told: unknown[][] = [];
    setAiObserver({
      recordAiRequest: (...args) => void told.push(["request", ...args]),
      noteAiProviderOutcome: (...args) => void told.push(["provider", ...args]),
    });
    exporter.reset();
    const failure = new ProviderError("video", "replicate:acme/secret-model", "unavailable");
    const render = observedProviderCall("video", "replicate:acme/secret-model", () => Promise.reject(failure));
    // Not made a DomainError: the runner ends the job by the ProviderError's failure itself.
    await expect(render).rejects.toBe(failure);
    const [video] = named("ai video");
    expect(video.attributes).toMatchObject({
      "studio.ai.capability": "video",
      "studio.ai.provider": "replicate",
      "studio.ai.outcome": "unavailable",
    });
    expect(video.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(told).toEqual([
      ["request", "video", "replicate", "unavailable", expect.any(Number)],
      ["provider", "video", "replicate", "unavailable"],
    ]);

    // Stopped from our side (a lost claim, the job's time up): a cancellation, nothing said of the provider.
    told.length = 0;
    const controller = new AbortController();
    controller.abort(new Error("job taken over"));
    await expect(
      observedProviderCall("video", "replicate:m", () => Promise.reject(controller.signal.reason), controller.signal),
    ).rejects.toThrow("job taken over");
    expect(told).toEqual([
      ["request", "video", "replicate", "cancelled", expect.any(Number)],
      ["provider", "video", "replicate", "cancelled"],
    ]);
    expect(JSON.stringify(spans().map((span) => span.attributes))).not.toContain("secret-model");
  });

  it("a remote provider's call: a CLIENT span per attempt, with the URL's path but not its query", async () => {
    let calls = 0;
    const stub = await startStubServer((_request, response) =>
      ++calls === 1 ? sendJson(response, 503, {}) : sendJson(response, 200, { ok: true }),
    );
    try {
      exporter.reset();
      const call = { timeoutMs: 2000, totalTimeoutMs: 10_000, maxRetries: 2, retryBaseMs: 10 };
      const url = `${stub.url}/v1/chat?key=sk-secret-0123`;
      const answer = await withProviderFailures(
        "chat",
        () => remoteJson({ capability: "chat", provider: "openai-compatible:m", url, body: "{}", call }),
        "openai-compatible:m",
      );
      expect(answer).toEqual({ ok: true });
      const [ai] = named("ai chat");
      // Ended in the order they were sent: the first attempt's span ends before the retry starts.
      const attempts = named("POST");
      expect(attempts).toHaveLength(2);
      const port = Number(new URL(stub.url).port);
      for (const attempt of attempts) {
        expect(attempt.kind).toBe(api.SpanKind.CLIENT);
        expect(attempt.parentSpanContext?.spanId).toBe(ai.spanContext().spanId);
        expect(attempt.attributes).toMatchObject({
          "http.request.method": "POST",
          "server.address": "127.0.0.1",
          "server.port": port,
          "url.full": `${stub.url}/v1/chat`,
        });
      }
      expect(attempts[0].attributes).toMatchObject({ "http.response.status_code": 503, "error.type": "503" });
      expect(attempts[1].attributes).toMatchObject({
        "http.response.status_code": 200,
        "http.request.resend_count": 1,
      });
      expect(JSON.stringify(spans().map((span) => span.attributes))).not.toContain("sk-secret");
    } finally {
      await stub.close();
    }
  });
});
