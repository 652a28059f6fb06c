import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { mp3Frames, mp4Bytes } from "../support/media";
import { startS3rver, type S3TestServer } from "../support/s3";

/**
 * Decision 0049: the S3-compatible store stops (s3rver closed) and comes back on the same port and folder.
 * Meanwhile a download is a 503 with Retry-After (never a 200 cut short), an upload is a 503 that
 * keeps no row, no temporary object and nothing of the quota, health says "degraded" with storage
 * "unavailable"; the process stays up, and within 10 s of the store's return all of it works again.
 */
const BUCKET = "studio-media";
const PASSWORD = "correct horse battery";
const STORAGE_DETAIL = "The studio can't reach its file storage right now. Please try again in a moment.";

/** s3rver (tests/support/s3.ts): paused and resumed on the same port and folder. */
let s3: S3TestServer;
let server: RunningServer;
let token: string;

async function call(urlPath: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${token}`);
  return fetch(server.url + urlPath, { ...init, headers });
}
const voiceForm = (name: string) => {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(mp3Frames(20))], { type: "audio/mpeg" }), name);
  return form;
};
const keys = (prefix: string) => s3.keys(prefix);
const usage = async () =>
  (await (await call("/api/library/usage")).json()) as { used_bytes?: number } & Record<string, unknown>;

/** Polls `check` until it holds, for at most `ms`; resolves how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return Date.now() - started;
}

beforeAll(async () => {
  s3 = await startS3rver(BUCKET);
  server = await startTestServer(s3.env);
  const email = `outage-${Date.now()}@example.com`;
  const json = (body: unknown) => ({
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect((await fetch(`${server.url}/api/auth/register`, json({ email, password: PASSWORD }))).status).toBe(201);
  token = (await (await fetch(`${server.url}/api/auth/login`, json({ email, password: PASSWORD }))).json())
    .access_token;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

describe("the file store stops and comes back", () => {
  it("503s while it is away (downloads, uploads, health), nothing half kept, and all works again after", async () => {
    const video = mp4Bytes(256 * 1024 + 3);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(video)]), "trip.mp4");
    expect((await call("/api/videos/upload", { method: "POST", body: form })).status).toBe(201);
    expect((await call("/api/voice/upload", { method: "POST", body: voiceForm("kept.mp3") })).status).toBe(201);
    const objectsBefore = await keys("objects/");
    const usedBefore = await usage();
    expect(objectsBefore).toHaveLength(2);

    await s3.pause();

    // A download asks the store before it answers: a 503 with its reason, not a 200 cut short.
    for (const range of [undefined, "bytes=100-199"]) {
      const download = await call("/api/videos/trip.mov", { headers: range ? { Range: range } : {} });
      expect(download.status).toBe(503);
      expect(download.headers.get("retry-after")).toBe("5");
      expect(await download.json()).toEqual({ detail: STORAGE_DETAIL });
    }

    // So does an export (a zip's status goes out before its files are read).
    const zip = await call("/api/account/export");
    expect(zip.status).toBe(503);
    expect(await zip.json()).toEqual({ detail: STORAGE_DETAIL });

    // An upload whose bytes cannot reach the store: 503, and nothing of it is kept or counted.
    const refused = await call("/api/voice/upload", { method: "POST", body: voiceForm("lost.mp3") });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ detail: STORAGE_DETAIL });
    const files = (await (await call("/api/voice/list-files")).json()) as unknown;
    expect(JSON.stringify(files)).not.toContain("lost.mp3");
    expect(await usage()).toEqual(usedBefore);

    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get("retry-after")).toBe("5");
    expect(await health.json()).toMatchObject({
      status: "degraded",
      database: "ok",
      storage: "unavailable",
      storage_kind: "s3",
    });

    await s3.resume();
    const recovered = await within(10_000, async () => (await fetch(`${server.url}/api/health`)).status === 200);
    expect(recovered).toBeLessThan(10_000);
    expect(await (await fetch(`${server.url}/api/health`)).json()).toMatchObject({ status: "ok", storage: "ok" });

    const again = await call("/api/videos/trip.mov");
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(video)).toBe(true);
    // The same upload, retried, is kept; no temporary object is left behind.
    expect((await call("/api/voice/upload", { method: "POST", body: voiceForm("lost.mp3") })).status).toBe(201);
    expect(JSON.stringify(await (await call("/api/voice/list-files")).json())).toContain("lost.mp3");
    expect(await keys("objects/")).toHaveLength(3);
    expect(await keys("tmp/")).toEqual([]);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it("a file whose bytes are gone from the store is a 404 with a detail, not a 200 cut short", async () => {
    const before = new Set(await keys("objects/"));
    expect((await call("/api/voice/upload", { method: "POST", body: voiceForm("gone.mp3") })).status).toBe(201);
    const added = (await keys("objects/")).filter((key) => !before.has(key));
    expect(added).toHaveLength(1);
    await s3.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: added[0] }));
    const answer = await call("/static/voices/gone.mp3");
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ detail: "File not found" });
  });

  it("a store failing after the first byte cuts the download (not a short 200 that looks whole), and the server stays up", async () => {
    const big = mp4Bytes(16 * 1024 * 1024);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(big)]), "long.mp4");
    expect((await call("/api/videos/upload", { method: "POST", body: form })).status).toBe(201);

    const download = await call("/api/videos/long.mov");
    expect(download.status).toBe(200);
    expect(download.headers.get("content-length")).toBe(String(big.length));
    const reader = download.body!.getReader();
    let received = (await reader.read()).value!.length;
    // The store goes away mid-transfer: its connections are cut, then it stops.
    s3.cutConnections();
    await s3.pause();
    const rest = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return "ended";
        received += value.length;
      }
    })();
    await expect(rest).rejects.toThrow();
    expect(received).toBeLessThan(big.length);

    await s3.resume();
    await within(10_000, async () => (await fetch(`${server.url}/api/health`)).status === 200);
    const whole = await call("/api/videos/long.mov");
    expect(Buffer.from(await whole.arrayBuffer()).equals(big)).toBe(true);
    expect(server.child.exitCode).toBeNull();
  }, 90_000);
});
