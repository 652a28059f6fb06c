import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { startS3rver } from "../support/s3";
import { mp3Frames, mp4Bytes } from "../support/media";

/**
 * The built server with STORAGE_URL pointing at an S3-compatible store (s3rver on loopback): uploads
 * land in the bucket under objects/<id> (nothing left under tmp/), byte ranges reach the store so a
 * video seeks, a rename keeps the object, a delete removes it; a bad STORAGE_URL stops the start.
 */
const PASSWORD = "correct horse battery";
let s3: Awaited<ReturnType<typeof startS3rver>>;
let server: RunningServer;
let token: string;

async function call(path: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (token) headers.set("Authorization", `Bearer ${token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  }
  return fetch(server.url + path, { ...init, headers, body });
}

function fileForm(bytes: Buffer, filename: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), filename);
  return form;
}

beforeAll(async () => {
  s3 = await startS3rver("studio-media", "studio");
  server = await startTestServer({ ...s3.env });
  const email = `s3-${Date.now()}@example.com`;
  const json = { email, password: PASSWORD };
  expect((await call("/api/auth/register", { method: "POST", json })).status).toBe(201);
  token = (await (await call("/api/auth/login", { method: "POST", json })).json()).access_token;
});

afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

describe("STORAGE_URL=s3://… (s3rver)", () => {
  it("health names the S3 store", async () => {
    const health = await (await fetch(server.url + "/api/health")).json();
    expect(health.storage).toBe("ok");
    expect(health.storage_kind).toBe("s3");
  });

  it("a video: upload, full read, a byte range (seek), rename, delete (the object goes)", async () => {
    const bytes = mp4Bytes(3 * 1024 * 1024 + 17);
    const uploaded = await call("/api/videos/upload", { method: "POST", body: fileForm(bytes, "trip.mp4") });
    expect(uploaded.status).toBe(201);
    const objects = await s3.keys("studio/");
    expect(objects).toHaveLength(1);
    expect(objects[0]).toMatch(/^studio\/objects\/[A-Za-z0-9_-]+$/);

    const full = await call("/api/videos/trip.mov");
    expect(full.status).toBe(200);
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);

    const start = 2 * 1024 * 1024 + 5;
    const end = start + 99_999;
    const part = await call("/api/videos/trip.mov", { headers: { Range: `bytes=${start}-${end}` } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes ${start}-${end}/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(true);
    const tail = await call("/api/videos/trip.mov", { headers: { Range: "bytes=-10" } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);

    const renamed = await call("/api/videos/rename", {
      method: "PUT",
      json: { old_name: "trip.mov", new_name: "Final cut" },
    });
    expect(renamed.status).toBe(200);
    expect(await s3.keys("studio/")).toEqual(objects);
    const afterRename = await call(`/api/videos/${encodeURIComponent("Final cut.mov")}`, {
      headers: { Range: "bytes=0-7" },
    });
    expect(afterRename.status).toBe(206);
    expect(Buffer.from(await afterRename.arrayBuffer()).equals(bytes.subarray(0, 8))).toBe(true);

    expect((await call(`/api/videos/${encodeURIComponent("Final cut.mov")}`, { method: "DELETE" })).status).toBe(200);
    expect(await s3.keys("studio/")).toEqual([]);
    expect((await call(`/api/videos/${encodeURIComponent("Final cut.mov")}`)).status).toBe(404);
  });

  it("a voice clip is served from the bucket at /static/voices/{name} with ranges", async () => {
    const bytes = mp3Frames(20);
    expect((await call("/api/voice/upload", { method: "POST", body: fileForm(bytes, "memo.mp3") })).status).toBe(201);
    const part = await call("/static/voices/memo.mp3", { headers: { Range: "bytes=3-9" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(3, 10))).toBe(true);
    expect((await s3.keys("studio/tmp/")).length).toBe(0);
  });

  it("a STORAGE_URL naming a bucket that does not exist stops the start with a message naming STORAGE_URL", async () => {
    await expect(startTestServer({ ...s3.env, STORAGE_URL: s3.storageUrl("no-such-bucket") })).rejects.toThrow(
      /STORAGE_URL: the file store at s3:\/\/no-such-bucket/,
    );
    await expect(startTestServer({ STORAGE_URL: "s3://x" })).rejects.toThrow(/STORAGE_URL/);
  });
});
