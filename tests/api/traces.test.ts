import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, newUser, signInWithForm } from "../support/api";
import {
  descendantsOf,
  SPAN_KIND,
  startOtlpCollector,
  STATUS_ERROR,
  type CollectedSpan,
  type OtlpCollector,
} from "../support/otlp-collector";
import { databaseEnvOf, startTestServer, type RunningServer } from "../support/server";
import { waitFor } from "../support/wait";

/**
 * Traces (docs/decisions/0089) from the production build to a collector, as an operator sets them up:
 * OTEL_EXPORTER_OTLP_ENDPOINT names it, and the SDK posts OTLP JSON to its /v1/traces. One SERVER span
 * per request, named by the route's pattern, carrying the request id the answer gives; the SQL under
 * it; a share link's token never exported. (Traces off is every other suite: no endpoint, no SDK.)
 */
let collector: OtlpCollector;
let server: RunningServer;

beforeAll(async () => {
  collector = await startOtlpCollector();
  // A short batch delay: the spans reach the collector within a tenth of a second of ending.
  server = await startTestServer({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: "50" });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await collector?.close();
});

const call = (path: string, init: { token?: string; json?: unknown } = {}) =>
  api(path, { ...init, server: server.url });

/** The SERVER span whose request id is `requestId`, once it has reached the collector. */
const serverSpanOf = (requestId: string) =>
  waitFor(
    () =>
      collector.spans.find(
        (span) =>
          span.kind === SPAN_KIND.server &&
          (span.attributes["http.request.header.x-request-id"] as string[] | undefined)?.[0] === requestId,
      ),
    (span): span is CollectedSpan => span !== undefined,
  ) as Promise<CollectedSpan>;

describe("traces with OTEL_EXPORTER_OTLP_ENDPOINT set", { timeout: 120_000 }, () => {
  it("GET /content/{id}: a SERVER span `GET /content/:id` with the answer's X-Request-Id, and its SQL as children without parameters", async () => {
    const person = await newUser("traces", server.url);
    const created = await call("/api/content", {
      token: person.token,
      json: { title: "Traced 5c2e", body: "a body never exported 5c2e" },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const cookie = await signInWithForm(person.email, server.url);
    const page = await fetch(`${server.url}/content/${id}`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    await page.text();
    const requestId = page.headers.get("x-request-id")!;
    expect(requestId).toBeTruthy();

    const request = await serverSpanOf(requestId);
    expect(request.name).toBe("GET /content/:id");
    expect(request.attributes).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/content/:id",
      "http.response.status_code": 200,
      "url.scheme": "http",
      "url.path": `/content/${id}`,
    });
    expect(request.statusCode).not.toBe(STATUS_ERROR);
    expect(request.resource).toMatchObject({ "service.name": "creative-ai-studio" });
    expect(request.resource["service.instance.id"]).toEqual(expect.any(String));

    const system = databaseEnvOf(server.dataDir).DATABASE_URL ? "postgresql" : "sqlite";
    const queries = descendantsOf(collector.spans, request).filter((span) => span.attributes["db.system.name"]);
    expect(queries.map((span) => span.name)).toContain("SELECT content_items");
    for (const query of queries) {
      expect(query.kind).toBe(SPAN_KIND.client);
      expect(query.attributes["db.system.name"]).toBe(system);
      expect(query.name).toMatch(/^[A-Z]+( \w+)?$/);
      // Placeholders only: the item's id, its owner and its text stay out of every statement.
      expect(query.attributes["db.query.text"]).not.toContain(id);
      expect(query.attributes["db.query.text"]).not.toContain(person.id);
    }
    expect(collector.bodies.join("\n")).not.toContain("never exported");
  });

  it("a trusted proxy's traceparent continues its trace", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentId = "00f067aa0ba902b7";
    // TRUST_PROXY=loopback (the test servers'): this client is a trusted proxy.
    const answer = await fetch(`${server.url}/api/health`, {
      headers: { traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(answer.status).toBe(200);
    const request = await serverSpanOf(answer.headers.get("x-request-id")!);
    expect(request.name).toBe("GET /api/health");
    expect(request.traceId).toBe(traceId);
    expect(request.parentSpanId).toBe(parentId);
  });

  it("a share link's page: url.path is /s/*** and its token is in no exported span", async () => {
    const person = await newUser("traces-share", server.url);
    const created = await call("/api/content", { token: person.token, json: { title: "Shared", body: "text" } });
    const made = await call("/api/shares", { token: person.token, json: { kind: "content", id: created.body.id } });
    expect(made.status).toBe(201);
    const { pathname } = new URL(made.body.url as string);
    const token = pathname.split("/")[2];
    const page = await fetch(`${server.url}${pathname}`);
    expect(page.status).toBe(200);
    await page.text();
    const request = await serverSpanOf(page.headers.get("x-request-id")!);
    expect(request.name).toBe("GET /s/:token");
    expect(request.attributes["url.path"]).toBe("/s/***");
    // Every span so far as it was sent (the page's own children ended before it did).
    expect(collector.bodies.join("\n")).not.toContain(token);
  });

  it("a refusal under 500 carries its status and leaves the span unfailed", async () => {
    const refused = await fetch(`${server.url}/api/content`);
    expect(refused.status).toBe(401);
    const request = await serverSpanOf(refused.headers.get("x-request-id")!);
    expect(request.attributes["http.response.status_code"]).toBe(401);
    expect(request.statusCode).not.toBe(STATUS_ERROR);
    expect(request.attributes["error.type"]).toBeUndefined();
  });
});
