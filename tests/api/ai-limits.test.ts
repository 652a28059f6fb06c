import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { api, baseUrl, newUser, signInWithForm } from "../support/api";

/**
 * Per-person AI limits (decision 0038): every AI call of a person counts against one allowance,
 * AI_REQUESTS_PER_MINUTE (20 by default, as the suite's server runs) and AI_CONCURRENT_PER_PERSON
 * (2 by default; 1 on this file's own server). Over either: 429, Retry-After in seconds and a
 * {"detail"} that says when to try again.
 */
const TRY_AGAIN = /Try again in \d+ seconds?\./;

function expectLimited(answer: { status: number; body: any; headers: Headers }, detail: RegExp) {
  expect(answer.status).toBe(429);
  const retryAfter = Number(answer.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(answer.body.detail).toMatch(detail);
  expect(answer.body.detail).toMatch(TRY_AGAIN);
  expect(answer.body.detail).toContain(`${retryAfter} second`);
}

const message = (token: string, text = "How do I use the Drawing Pad?") =>
  api("/api/assistant/message", { token, json: { message: text } });

describe("per-minute AI limit (default 20)", () => {
  it("the 21st assistant message in a minute is 429 with Retry-After and a detail saying when", async () => {
    const user = await newUser("ai-minute");
    for (let i = 0; i < 20; i++) expect((await message(user.token, `hello ${i}`)).status).toBe(200);
    const refused = await message(user.token);
    expectLimited(refused, /^Too many AI requests: at most 20 a minute\./);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // The stream is refused before any event, as JSON.
    const stream = await api("/api/assistant/stream", { token: user.token, json: { message: "hello" } });
    expectLimited(stream, /a minute/);
    // Another person is not limited by this one.
    const other = await newUser("ai-minute-other");
    expect((await message(other.token)).status).toBe(200);
  });

  it("is shared by every AI endpoint: assistant, stream, voice, sketch, creative tools and AI video", async () => {
    const user = await newUser("ai-shared");
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#335577" } })
      .png()
      .toBuffer();
    const calls = [
      () => api("/api/assistant/message", { token: user.token, json: { message: "hi" } }),
      () => api("/api/assistant/stream", { token: user.token, json: { message: "hi" } }),
      () => api("/api/voice/generate", { token: user.token, json: { text: "Hello there" } }),
      () =>
        api("/api/ai/sketch2image", {
          token: user.token,
          json: { image_data: `data:image/png;base64,${png.toString("base64")}`, style: "cartoon" },
        }),
      () => api("/api/creative-tools/assistant/generate", { token: user.token, json: { prompt: "a short script" } }),
      () => api("/api/creative-tools/voice/generate", { token: user.token, json: { text: "Hello again" } }),
    ];
    const statuses: number[] = [];
    for (let i = 0; i < 18; i++) statuses.push((await calls[i % calls.length]()).status);
    // Two AI video jobs (each one AI request): 20 in all.
    for (let i = 0; i < 2; i++)
      statuses.push((await api("/api/aivideo/", { token: user.token, json: { prompt: `clip ${i}` } })).status);
    expect(statuses.every((status) => status >= 200 && status < 300)).toBe(true);
    // The 21st, whichever endpoint it is, is refused.
    expectLimited(await api("/api/voice/generate", { token: user.token, json: { text: "one more" } }), /a minute/);
    expectLimited(await api("/api/aivideo/", { token: user.token, json: { prompt: "one more" } }), /a minute/);
    expectLimited(
      await api("/api/creative-tools/aivideo/generate", { token: user.token, json: { prompt: "one more" } }),
      /a minute/,
    );
    expectLimited(
      await api("/api/ai/sketch2image", {
        token: user.token,
        json: { image_data: `data:image/png;base64,${png.toString("base64")}`, style: "cartoon" },
      }),
      /a minute/,
    );
  });

  it("the screens' forms share the allowance: the assistant's form answers 429 with Retry-After and says when", async () => {
    const user = await newUser("ai-form");
    const cookie = await signInWithForm(user.email);
    const ask = () =>
      fetch(`${baseUrl()}/assistant`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ message: "How do I use the Drawing Pad?" }),
        redirect: "manual",
      });
    for (let i = 0; i < 10; i++) expect((await ask()).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await message(user.token, `hello ${i}`)).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const page = await refused.text();
    expect(page).toContain("Something went wrong.");
    expect(page).toMatch(/Too many AI requests: at most 20 a minute\. Try again in \d+ seconds?\./);
  });

  it("bad input is not an AI request: a 422 does not count", async () => {
    const user = await newUser("ai-bad-input");
    for (let i = 0; i < 25; i++)
      expect((await api("/api/assistant/message", { token: user.token, json: { message: "" } })).status).toBe(422);
    expect((await message(user.token)).status).toBe(200);
  });
});

describe("concurrent AI requests (AI_CONCURRENT_PER_PERSON=1)", () => {
  let server: RunningServer;
  const call = (path: string, token: string, json: unknown, signal?: AbortSignal) =>
    fetch(server.url + path, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(json),
      signal,
    });
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({ AI_CONCURRENT_PER_PERSON: "1", AI_REQUESTS_PER_MINUTE: "100" });
    token = (await newUser("ai-concurrent", server.url)).token;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("a stream holds the slot until it ends: a second call meanwhile is 429, one after it is answered", async () => {
    const stream = await call("/api/assistant/stream", token, { message: "hello" });
    expect(stream.status).toBe(200);
    const during = await call("/api/assistant/message", token, { message: "hello" });
    expect(during.status).toBe(429);
    expect(Number(during.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await during.json()).detail).toMatch(
      /^Too many AI requests at once: at most 1 at a time\. Try again in \d+ seconds?\.$/,
    );
    expect(await stream.text()).toContain("data: [DONE]");
    const after = await call("/api/assistant/message", token, { message: "hello" });
    expect(after.status).toBe(200);
  });

  it("a person who goes away mid-stream frees the slot", async () => {
    const controller = new AbortController();
    const stream = await call("/api/assistant/stream", token, { message: "hello" }, controller.signal);
    expect(stream.status).toBe(200);
    controller.abort();
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await call("/api/assistant/message", token, { message: "hello" })).status;
    }
    expect(status).toBe(200);
  });
});
