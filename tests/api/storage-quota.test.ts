import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { mp4Bytes } from "../support/media";
import { newUser } from "../support/api";

/**
 * The storage quota under races and with text (decision 0037), against a server with a 3 MiB quota: video
 * uploads sent at once never store more than the quota (the rest are 413 with the quota's detail, and
 * nothing of them is kept), and text counts toward the same quota (create and autosave past it are 413,
 * nothing saved; the usage answer says the text's bytes).
 */
const MiB = 1024 * 1024;
const QUOTA = 3 * MiB;
const QUOTA_DETAIL =
  "Not enough storage left: this would pass your 3 MiB quota. Delete files in your library to make room.";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ USER_STORAGE_QUOTA_MB: "3" });
});
afterAll(async () => {
  await server?.stop();
});

const signUp = async (prefix: string) => (await newUser(prefix, server.url)).token;

async function call(token: string, pathname: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    ...(rest.headers as Record<string, string>),
  };
  if (json !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`${server.url}${pathname}`, {
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const videoForm = (bytes: Buffer, name: string) => {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "video/mp4" }), name);
  return form;
};

describe("USER_STORAGE_QUOTA_MB under racing uploads", () => {
  it("8 video uploads of 0.9 MB at once under 3 MiB: at most the quota is stored, the rest are 413 with the quota's detail", async () => {
    const token = await signUp("quota-race");
    const bytes = mp4Bytes(900_000 - 32);
    expect(bytes.length).toBe(900_000);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(token, "/api/videos/upload", { method: "POST", body: videoForm(bytes, `race-${i}.mp4`) }),
      ),
    );
    const kept = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    for (const answer of refused) expect(answer).toEqual({ status: 413, body: { detail: QUOTA_DETAIL } });
    // Three fit (2.7 MB of 3.15 MB); a fourth would pass the quota.
    expect(kept).toHaveLength(3);
    const usage = await call(token, "/api/library/usage");
    expect(usage.body.used_bytes).toBe(kept.length * bytes.length);
    expect(usage.body.used_bytes).toBeLessThanOrEqual(QUOTA);
    const listed = await call(token, "/api/videos");
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body).match(/race-\d\.mov/g) ?? []).toHaveLength(kept.length);
  });
});

describe("text counts toward the quota", () => {
  it("creates are 413 once full, autosave and PUT past it are 413 and save nothing; usage says text_bytes", async () => {
    const token = await signUp("quota-text");
    const body = "x".repeat(100_000);
    let created = 0;
    let refusal: { status: number; body: unknown } | null = null;
    for (let i = 0; i < 42 && !refusal; i++) {
      const answer = await call(token, "/api/content", {
        method: "POST",
        json: { title: `Item ${String(i).padStart(2, "0")}`, body },
      });
      if (answer.status === 201) created++;
      else refusal = answer;
    }
    expect(refusal).toEqual({ status: 413, body: { detail: QUOTA_DETAIL } });
    const each = "Item 00".length + 100_000;
    expect(created).toBe(Math.floor(QUOTA / each));
    const usage = await call(token, "/api/library/usage");
    expect(usage.body).toMatchObject({ used_bytes: created * each, text_bytes: created * each, quota_bytes: QUOTA });
    const list = await call(token, "/api/content");
    expect(list.body).toHaveLength(created);

    // A small item still fits; making it larger than the room left is refused, by autosave and by PUT.
    const small = await call(token, "/api/content", { method: "POST", json: { title: "Small", body: "a" } });
    expect(small.status).toBe(201);
    const grown = { title: "Small", body: "b".repeat(100_000) };
    const autosave = await call(token, `/api/content/${small.body.id}/autosave`, {
      method: "POST",
      json: { ...grown, updated_at: small.body.updated_at },
    });
    expect(autosave).toEqual({ status: 413, body: { detail: QUOTA_DETAIL } });
    const put = await call(token, `/api/content/${small.body.id}`, { method: "PUT", json: grown });
    expect(put).toEqual({ status: 413, body: { detail: QUOTA_DETAIL } });
    expect((await call(token, `/api/content/${small.body.id}`)).body).toMatchObject({
      title: "Small",
      body: "a",
      updated_at: small.body.updated_at,
    });
    // A save that shrinks passes; a video no longer fits beside the text.
    const shrunk = await call(token, `/api/content/${list.body[0].id}`, {
      method: "PUT",
      json: { title: "Shrunk", body: "c" },
    });
    expect(shrunk.status).toBe(200);
    const video = await call(token, "/api/videos/upload", {
      method: "POST",
      body: videoForm(mp4Bytes(200_000), "beside.mp4"),
    });
    expect(video).toEqual({ status: 413, body: { detail: QUOTA_DETAIL } });
    const after = await call(token, "/api/library/usage");
    // The refused saves kept no version; the shrinking one kept its piece's history (docs/decisions/0072),
    // the created state and the new one, which count too.
    expect((await call(token, `/api/content/${small.body.id}/versions`)).body).toEqual([]);
    const history = await call(token, `/api/content/${list.body[0].id}/versions`);
    expect(history.body.map((version: { bytes: number }) => version.bytes)).toEqual(["Shrunk".length + 1, each]);
    expect(after.body.text_bytes).toBe(
      (created - 1) * each + "Small".length + 1 + "Shrunk".length + 1 + ("Shrunk".length + 1 + each),
    );
    expect(after.body.used_bytes).toBe(after.body.text_bytes);
  });
});
