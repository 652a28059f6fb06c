import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the front door (scripts/), without types
import { NodeRequest, toFetchRequest } from "../../scripts/fetch-bridge.mjs";

/** What toFetchRequest reads of Node's IncomingMessage and ServerResponse. */
function nodePair(method: string, body?: string) {
  const req = Object.assign(Readable.from(body === undefined ? [] : [Buffer.from(body)]), {
    method,
    url: "/api/content/abc/autosave?x=1",
    headers: { host: "studio.test", "content-type": "application/json", cookie: ["a=1", "b=2"] as unknown as string },
  });
  const res = Object.assign(new EventEmitter(), { writableFinished: false });
  return { req, res };
}
const toBody = (readable: Readable) => Readable.toWeb(readable);

describe("the front door's Request (scripts/fetch-bridge.mjs)", () => {
  it("is a Request with the client's method, URL, headers and body", async () => {
    const { req, res } = nodePair("POST", '{"title":"Hi"}');
    const request = toFetchRequest(req, res, "http://studio.test", toBody);
    expect(request).toBeInstanceOf(Request);
    expect(request.method).toBe("POST");
    expect(request.url).toBe("http://studio.test/api/content/abc/autosave?x=1");
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(request.headers.get("cookie")).toBe("a=1; b=2");
    expect(await request.json()).toEqual({ title: "Hi" });
    expect(request.signal.aborted).toBe(false);
  });

  it("aborts its signal when the client goes away before the answer is finished, read before or after", () => {
    const early = nodePair("GET");
    const readFirst = toFetchRequest(early.req, early.res, "http://studio.test", toBody);
    const signal = readFirst.signal;
    const reasons: unknown[] = [];
    signal.addEventListener("abort", () => reasons.push(signal.reason));
    early.res.emit("close");
    expect(signal.aborted).toBe(true);
    expect(reasons).toHaveLength(1);
    expect((reasons[0] as DOMException).name).toBe("AbortError");
    // One signal for the request's life.
    expect(readFirst.signal).toBe(signal);

    const late = nodePair("GET");
    const readAfter = toFetchRequest(late.req, late.res, "http://studio.test", toBody);
    late.res.emit("close");
    expect(readAfter.signal.aborted).toBe(true);
  });

  it("does not abort once the answer was sent", () => {
    const { req, res } = nodePair("GET");
    const request = toFetchRequest(req, res, "http://studio.test", toBody);
    res.writableFinished = true;
    res.emit("close");
    expect(request.signal.aborted).toBe(false);
    // The signal serves what the app gives it: an AI call's combined signal follows it.
    const combined = AbortSignal.any([request.signal, new AbortController().signal]);
    NodeRequest.clientWentAway(request);
    expect(combined.aborted).toBe(true);
  });
});
