import { Readable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { DomainError } from "~/lib/domain-error";
import { storedBody } from "~/lib/http/file-response.server";
import type { FileStore } from "~/lib/storage/storage.server";
import { screenFailure } from "~/lib/screens/forms.server";
import { within } from "~/lib/health.server";
import { errorResponse } from "~/lib/http/responder.server";
import { outageOf, UNAVAILABLE, UNAVAILABLE_DETAIL } from "~/lib/outage.server";
import { OUTAGE_RETRY_MS, startHousekeeping } from "~/services/operators/housekeeping.server";

/**
 * Decision 0049: one mapping tells an outage (the database or the store out of reach) from bad input and
 * from bugs. An outage is the 503 "unavailable" with Retry-After; a 4xx stays what it was; anything
 * else stays an error the responder rethrows (a 500).
 */
const withCode = (code: string, message = "failed") => Object.assign(new Error(message), { code });
const s3Error = (name: string, httpStatusCode?: number) =>
  Object.assign(new Error(name), { name, $metadata: httpStatusCode === undefined ? {} : { httpStatusCode } });

describe("outageOf: connection errors are the database's or the store's 503", () => {
  it.each([
    ["57P01 admin shutdown", withCode("57P01", "terminating connection due to administrator command")],
    ["57P02 crash shutdown", withCode("57P02")],
    ["57P03 cannot connect now", withCode("57P03", "the database system is starting up")],
    ["08006 connection failure", withCode("08006")],
    ["08001 cannot establish", withCode("08001")],
    ["53300 too many connections", withCode("53300")],
    ["pg: Connection terminated unexpectedly", new Error("Connection terminated unexpectedly")],
    [
      "pg: Connection terminated due to connection timeout",
      new Error("Connection terminated due to connection timeout"),
    ],
    ["pg-pool: timeout exceeded when trying to connect", new Error("timeout exceeded when trying to connect")],
    ["ECONNREFUSED", withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432")],
    ["ECONNRESET", withCode("ECONNRESET", "read ECONNRESET")],
    ["EPIPE", withCode("EPIPE")],
    ["ETIMEDOUT", withCode("ETIMEDOUT")],
    ["EHOSTUNREACH", withCode("EHOSTUNREACH")],
    [
      "an AggregateError of refused addresses",
      new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")], "connect failed"),
    ],
    ["a wrapped cause", new Error("query failed", { cause: withCode("57P01") })],
  ])("%s → 503 database", (_label, error) => {
    const outage = outageOf(error);
    expect(outage).toBeInstanceOf(DomainError);
    expect(outage).toMatchObject({ status: 503, detail: UNAVAILABLE_DETAIL.database, code: UNAVAILABLE });
    expect(outage!.options.headers).toEqual({ "Retry-After": "5" });
    expect(outage!.cause).toBe(error);
  });

  it.each([
    ["TimeoutError", s3Error("TimeoutError")],
    ["NetworkingError", s3Error("NetworkingError")],
    ["no HTTP status at all", Object.assign(withCode("ECONNREFUSED"), { $metadata: {} })],
    ["503 SlowDown", s3Error("SlowDown", 503)],
    ["503 ServiceUnavailable", s3Error("ServiceUnavailable", 503)],
    ["500 InternalError", s3Error("InternalError", 500)],
  ])("S3 %s → 503 storage", (_label, error) => {
    expect(outageOf(error)).toMatchObject({ status: 503, detail: UNAVAILABLE_DETAIL.storage, code: UNAVAILABLE });
    expect(outageOf(error, "storage")).toMatchObject({ status: 503, detail: UNAVAILABLE_DETAIL.storage });
  });

  it("a socket error the caller names as the store's is the store's", () => {
    expect(outageOf(withCode("ECONNRESET"), "storage")?.detail).toBe(UNAVAILABLE_DETAIL.storage);
  });

  it.each([
    ["unique violation 23505", withCode("23505")],
    ["syntax error 42601", withCode("42601")],
    ["serialization failure 40001", withCode("40001")],
    ["SQLite busy", withCode("SQLITE_BUSY")],
    ["S3 404 NoSuchKey", s3Error("NoSuchKey", 404)],
    ["S3 403 AccessDenied", s3Error("AccessDenied", 403)],
    ["a TypeError (a bug)", new TypeError("cannot read properties of undefined")],
    ["a DomainError 422 (bad input)", new DomainError(422, "Title is required")],
    ["a DomainError 503 of another kind (busy)", new DomainError(503, "Busy", { code: "busy" })],
    ["fetch() to another server refused", new TypeError("fetch failed", { cause: withCode("ECONNREFUSED") })],
  ])("%s is not an outage", (_label, error) => {
    expect(outageOf(error)).toBeNull();
  });
});

describe("the responder and the screens", () => {
  it("the API answers an outage as 503 {detail} with Retry-After", async () => {
    const answer = errorResponse(withCode("57P01", "terminating connection due to administrator command"));
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Retry-After")).toBe("5");
    expect(await answer.json()).toEqual({ detail: UNAVAILABLE_DETAIL.database });
  });

  it("bad input stays its 4xx, and a bug is rethrown (React Router makes it a 500)", async () => {
    const refused = errorResponse(new DomainError(422, "Title is required"));
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ detail: "Title is required" });
    const bug = new TypeError("x is undefined");
    expect(() => errorResponse(bug)).toThrow(bug);
    expect(() => errorResponse(withCode("23505"))).toThrow();
  });

  it("a screen's failure says 503 with the plain message; a bug still throws", () => {
    expect(screenFailure(s3Error("SlowDown", 503))).toEqual({
      status: 503,
      code: UNAVAILABLE,
      detail: UNAVAILABLE_DETAIL.storage,
    });
    expect(() => screenFailure(new RangeError("bug"))).toThrow(RangeError);
  });
});

describe("health's probes and the housekeeping's backoff", () => {
  it("a probe is ok when it answers in time, unavailable when it fails, says false or takes too long", async () => {
    expect(await within(async () => true, 200)).toBe("ok");
    expect(await within(async () => false, 200)).toBe("unavailable");
    expect(await within(() => Promise.reject(withCode("ECONNREFUSED")), 200)).toBe("unavailable");
    let aborted = false;
    const started = Date.now();
    const slow = (signal: AbortSignal) =>
      new Promise((resolve) => {
        signal.addEventListener("abort", () => (aborted = true));
        setTimeout(resolve, 5000).unref();
      });
    expect(await within(slow, 100)).toBe("unavailable");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(aborted).toBe(true);
  });

  it("a run the database interrupted is tried again soon, backing off to at most 5 s, then keeps its schedule", async () => {
    vi.useFakeTimers();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      let failures = 4;
      const prune = vi.fn(async () => {
        if (failures-- > 0) throw withCode("57P01");
      });
      const housekeeping = startHousekeeping({ sweep: async () => {}, prune });
      expect(prune).toHaveBeenCalledTimes(1);
      // Retries after 1 s, 2 s, 4 s, then 5 s (the cap): the fifth run succeeds.
      for (const [wait, calls] of [
        [OUTAGE_RETRY_MS.first, 2],
        [2000, 3],
        [4000, 4],
        [OUTAGE_RETRY_MS.max, 5],
      ] as const) {
        await vi.advanceTimersByTimeAsync(wait - 1);
        expect(prune).toHaveBeenCalledTimes(calls - 1);
        await vi.advanceTimersByTimeAsync(1);
        expect(prune).toHaveBeenCalledTimes(calls);
      }
      // Back on its hourly schedule: no more retries.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(prune).toHaveBeenCalledTimes(5);
      await housekeeping.stop();
    } finally {
      errors.mockRestore();
      vi.useRealTimers();
    }
  });
});

describe("downloads ask the store before they answer", () => {
  /** A store whose open() gives `make()`'s stream (only open is used by storedBody). */
  const storeOf = (make: () => Readable) => ({ open: make }) as unknown as FileStore;
  const failing =
    (error: Error, chunks: Buffer[] = []) =>
    () =>
      new Readable({
        read() {
          const next = chunks.shift();
          if (next) this.push(next);
          else this.destroy(error);
        },
      });

  it("the store out of reach before the first byte is the 503, a missing object the 404", async () => {
    await expect(storedBody(storeOf(failing(withCode("ECONNREFUSED"))), "key-12345678")).rejects.toMatchObject({
      status: 503,
      detail: UNAVAILABLE_DETAIL.storage,
    });
    await expect(storedBody(storeOf(failing(withCode("ENOENT"))), "key-12345678")).rejects.toMatchObject({
      status: 404,
    });
  });

  it("the bytes flow once the store answered; a failure after the first byte errors the body (the server cuts the connection)", async () => {
    const whole = await storedBody(
      storeOf(() => Readable.from([Buffer.from("ab"), Buffer.from("cd")])),
      "key-12345678",
    );
    expect(Buffer.from(await new Response(whole).arrayBuffer()).toString()).toBe("abcd");

    const cut = await storedBody(storeOf(failing(withCode("ECONNRESET"), [Buffer.from("first")])), "key-12345678");
    const reader = cut.getReader();
    expect(Buffer.from((await reader.read()).value!).toString()).toBe("first");
    await expect(reader.read()).rejects.toThrow(/the store failed while sending key-12345678/);
  });
});
