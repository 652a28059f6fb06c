import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { newUser } from "../support/api";
import { formDataOf, sendJson, TINY_PNG, tinyWav } from "../support/ai-stub-server";
import { startReplicateStub, type ReplicateStub } from "../support/replicate-stub";

/**
 * The studio configured with remote providers (an OpenAI-compatible server and Replicate), both
 * played by a local stub: what the API answers, and exactly what the studio sends them.
 */
const KEY = "sk-remote-test-key-abcdef";
const REPLICATE_TOKEN = "r8_remote_test_token";
const WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
  Buffer.from("\x42\x82\x84webm"),
  Buffer.alloc(500, 3),
]);

let stub: ReplicateStub;
let server: RunningServer;
let token: string;

async function call(path: string, options: { method?: string; json?: unknown } = {}) {
  const response = await fetch(server.url + path, {
    method: options.method ?? (options.json === undefined ? "GET" : "POST"),
    headers: {
      Authorization: `Bearer ${token}`,
      ...(options.json === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // binary
  }
  return { status: response.status, body, text, headers: response.headers };
}

beforeAll(async () => {
  // Replicate's prediction is processing at its first poll and done at the second, its output WEBM;
  // the OpenAI-compatible server's calls are answered below.
  stub = await startReplicateStub({
    video: { bytes: WEBM, processingPolls: 1 },
    otherwise: (request, response) => {
      if (request.path === "/v1/chat/completions") {
        if (request.json?.messages?.[1]?.content === "please fail")
          return sendJson(response, 500, { error: `boom ${KEY}` });
        return sendJson(response, 200, {
          choices: [{ message: { content: `Remote says: ${request.json.messages[1].content}` } }],
        });
      }
      if (request.path === "/v1/audio/speech") {
        response.writeHead(200, { "Content-Type": "audio/wav" });
        return response.end(tinyWav());
      }
      if (request.path === "/v1/images/generations" || request.path === "/v1/images/edits") {
        return sendJson(response, 200, { data: [{ b64_json: TINY_PNG.toString("base64") }] });
      }
      sendJson(response, 404, { error: "not found" });
    },
  });
  server = await startTestServer({
    AI_BASE_URL: `${stub.url}/v1`,
    AI_API_KEY: KEY,
    AI_CHAT_MODEL: "test-chat",
    AI_SPEECH_MODEL: "test-tts",
    AI_SPEECH_VOICES: "alloy,nova",
    AI_IMAGE_MODEL: "test-image",
    AI_IMAGE_SIZE: "256x256",
    AI_TIMEOUT_SECONDS: "5",
    AI_MAX_RETRIES: "1",
    ...stub.env(REPLICATE_TOKEN),
  });
  token = (await newUser("remote", server.url)).token;
});

afterAll(async () => {
  await server?.stop();
  await stub?.close();
});

const sent = (path: string) => stub.requests.filter((request) => request.path === path);

describe("remote providers through the API", () => {
  it("health leaves test mode and names the remote providers' kinds, never the configured models", async () => {
    const health = await call("/api/health");
    expect(health.body).toMatchObject({
      test_mode: false,
      providers: {
        chat: "openai-compatible",
        speech: "openai-compatible",
        image: "openai-compatible",
        sketch: "openai-compatible",
        video: "replicate",
      },
    });
    // Anyone may ask for health: no model name in it anywhere.
    for (const model of ["test-chat", "test-tts", "test-image", "acme/text2video"])
      expect(JSON.stringify(health.body)).not.toContain(model);
  });

  it("the assistant asks the chat model; a provider failure is 502 with the text only in docs/screens.md#error-messages", async () => {
    const answer = await call("/api/assistant/message", { json: { message: "hello model" } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ reply: "Remote says: hello model", provider: "openai-compatible:test-chat" });
    const request = sent("/v1/chat/completions")[0];
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.json.model).toBe("test-chat");

    const failed = await call("/api/assistant/message", { json: { message: "please fail" } });
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ detail: "Something went wrong." });
    expect(failed.text).not.toContain(KEY);
    // One retry (AI_MAX_RETRIES=1): two attempts for the failing question.
    expect(sent("/v1/chat/completions").filter((r) => r.json.messages[1].content === "please fail")).toHaveLength(2);
  });

  it("voices come from AI_SPEECH_VOICES; speech is stored and served", async () => {
    expect((await call("/api/voice/voices")).body).toEqual({
      voices: [
        { voice_id: "alloy", name: "Alloy" },
        { voice_id: "nova", name: "Nova" },
      ],
    });
    const spoken = await call("/api/voice/generate", { json: { text: "Read this", voice_id: "nova" } });
    expect(spoken.status).toBe(201);
    expect(sent("/v1/audio/speech")[0].json).toEqual({
      model: "test-tts",
      input: "Read this",
      voice: "nova",
      response_format: "wav",
    });
    const file = await fetch(server.url + spoken.body.url, { headers: { Authorization: `Bearer ${token}` } });
    expect(file.headers.get("content-type")).toBe("audio/wav");
    expect(Buffer.from(await file.arrayBuffer()).equals(tinyWav())).toBe(true);
    expect((await call("/api/voice/generate", { json: { text: "x", voice_id: "gmw/en-US" } })).status).toBe(422);
  });

  it("images: generations for prompts, edits for sketches", async () => {
    const image = await call("/api/creative-tools/image/generate", { json: { prompt: "a tiny red dot" } });
    expect(image.status).toBe(201);
    expect(image.body.image_url).toMatch(/^\/media\//);
    expect(sent("/v1/images/generations")[0].json).toEqual({
      model: "test-image",
      prompt: "a tiny red dot",
      n: 1,
      size: "256x256",
    });

    const sketch = await sharp({ create: { width: 64, height: 40, channels: 3, background: "#222" } })
      .png()
      .toBuffer();
    const styled = await call("/api/ai/sketch2image", {
      json: { image_data: `data:image/png;base64,${sketch.toString("base64")}`, style: "painting" },
    });
    expect(styled.status).toBe(201);
    const edit = sent("/v1/images/edits")[0];
    const form = await formDataOf(edit);
    expect(form.get("model")).toBe("test-image");
    expect(String(form.get("prompt"))).toMatch(/oil painting/);
    expect(Buffer.from(await (form.get("image") as File).arrayBuffer()).equals(sketch)).toBe(true);
  });

  it("video jobs run on Replicate: create, poll, download, completed", async () => {
    const created = await call("/api/aivideo/", { json: { prompt: "a comet over the sea" } });
    expect(created.status).toBe(202);
    let status: any;
    const started = Date.now();
    do {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = (await call(`/api/aivideo/status/${created.body.id}`)).body;
    } while (status.status !== "completed" && status.status !== "error" && Date.now() - started < 120_000);
    expect(status.status).toBe("completed");
    const create = sent("/v1/models/acme/text2video/predictions")[0];
    expect(create.headers.authorization).toBe(`Bearer ${REPLICATE_TOKEN}`);
    expect(create.json).toEqual({ input: { prompt: "a comet over the sea" } });
    const [prediction] = [...stub.prompts].find(([, prompt]) => prompt === "a comet over the sea")!;
    expect(sent(`/v1/predictions/${prediction}`).length).toBeGreaterThanOrEqual(2);
    const clip = await fetch(server.url + status.url, { headers: { Authorization: `Bearer ${token}` } });
    expect(clip.headers.get("content-type")).toBe("video/webm");
    expect(Buffer.from(await clip.arrayBuffer()).equals(WEBM)).toBe(true);
  }, 180_000);
});
