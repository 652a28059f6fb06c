import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import {
  automatic1111Handler,
  chatChunk,
  comfyUiHandler,
  formDataOf,
  sendJson,
  sseEvent,
  startStubServer,
  TINY_PNG,
  tinyWav,
  type StubServer,
} from "../support/ai-stub-server";
import { newUser } from "../support/api";

/**
 * The built studio with a server per capability, each played by a local stub speaking its real
 * protocol: an OpenAI-compatible chat server that streams (Ollama, llama.cpp, vLLM), AUTOMATIC1111
 * for images; and in a second studio ComfyUI with the shipped workflow, a Kokoro-like speech server
 * and the offline assistant. What the API answers, what each stub was sent, and the streamed replies
 * through the real front door.
 */
const SECRET = "provider-secret-body-42";
const root = path.resolve(__dirname, "../..");

interface Studio {
  server: RunningServer;
  token: string;
}

const signIn = async (server: RunningServer, name: string) => (await newUser(name, server.url)).token;

async function call(
  studio: Studio,
  urlPath: string,
  options: { json?: unknown; token?: string | null; headers?: Record<string, string> } = {},
) {
  const token = options.token === undefined ? studio.token : options.token;
  const response = await fetch(studio.server.url + urlPath, {
    method: options.json === undefined ? "GET" : "POST",
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(options.json === undefined ? {} : { "Content-Type": "application/json" }),
      ...options.headers,
    },
    body:
      options.json === undefined
        ? undefined
        : typeof options.json === "string"
          ? options.json
          : JSON.stringify(options.json),
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // an event stream or a file
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** The `data:` payloads of a whole event-stream text. */
const eventsOf = (text: string) =>
  text
    .split("\n\n")
    .filter(Boolean)
    .map((block) => {
      expect(block.startsWith("data: ")).toBe(true);
      return block.slice(6);
    });

const sketchDataUrl = async () =>
  `data:image/png;base64,${(
    await sharp({ create: { width: 400, height: 250, channels: 3, background: "#223" } })
      .png()
      .toBuffer()
  ).toString("base64")}`;

let chatStub: StubServer;
let a1111Stub: StubServer;
let comfyStub: StubServer;
let speechStub: StubServer;
let remote: Studio;
let comfy: Studio;
/** Lets the gated reply go on once the test has seen its first piece arrive. */
let releaseGate: () => void = () => {};

beforeAll(async () => {
  chatStub = await startStubServer(async (request, response) => {
    if (request.path !== "/v1/chat/completions") return sendJson(response, 404, { error: "not found" });
    const question = request.json?.messages?.[1]?.content;
    if (question === "please fail") return sendJson(response, 500, { error: SECRET });
    response.writeHead(200, { "Content-Type": "text/event-stream" });
    if (question === "break midway") {
      response.write(sseEvent(chatChunk("Partial")));
      // The model server dies mid-reply.
      setTimeout(() => response.destroy(), 50);
      return;
    }
    if (question === "gated") {
      response.write(sseEvent(chatChunk("Hello")));
      await new Promise<void>((resolve) => (releaseGate = resolve));
      response.write(sseEvent(chatChunk(" there")));
      response.write(sseEvent(chatChunk("!")));
      return response.end(sseEvent("[DONE]"));
    }
    for (const word of ["Streamed", " reply", " to: ", question]) response.write(sseEvent(chatChunk(word)));
    response.end(sseEvent("[DONE]"));
  });
  a1111Stub = await startStubServer(
    automatic1111Handler({
      answer: (request, response) => {
        if (request.json?.prompt === "please fail")
          return sendJson(response, 500, { error: "RuntimeError", detail: SECRET });
        return automatic1111Handler()(request, response);
      },
    }),
  );
  const comfyDefault = comfyUiHandler();
  comfyStub = await startStubServer((request, response) => {
    const queued = comfyStub.requests.filter((sent) => sent.path === "/prompt").at(-1);
    if (request.path.startsWith("/history/") && queued?.json?.prompt?.["6"]?.inputs?.text === "please fail") {
      return comfyUiHandler({ jobError: true })(request, response);
    }
    return comfyDefault(request, response);
  });
  speechStub = await startStubServer((request, response) => {
    if (request.path !== "/v1/audio/speech") return sendJson(response, 404, {});
    response.writeHead(200, { "Content-Type": "audio/wav" });
    response.end(tinyWav());
  });

  const common = { AI_TIMEOUT_SECONDS: "5", AI_MAX_RETRIES: "0", AI_TOTAL_TIMEOUT_SECONDS: "20" };
  const [remoteServer, comfyServer] = await Promise.all([
    startTestServer({
      ...common,
      AI_CHAT_BASE_URL: `${chatStub.url}/v1`,
      AI_CHAT_MODEL: "stub-chat",
      AI_IMAGE_PROVIDER: "automatic1111",
      AI_IMAGE_BASE_URL: a1111Stub.url,
      AI_IMAGE_API_KEY: "studio:s3cret",
      AI_IMAGE_SIZE: "512x512",
    }),
    startTestServer({
      ...common,
      AI_IMAGE_PROVIDER: "comfyui",
      AI_IMAGE_BASE_URL: comfyStub.url,
      AI_COMFYUI_CHECKPOINT: "test-ckpt.safetensors",
      AI_IMAGE_SIZE: "768x512",
      AI_SPEECH_BASE_URL: `${speechStub.url}/v1`,
      AI_SPEECH_MODEL: "kokoro",
      AI_SPEECH_VOICES: "af_heart,bm_george",
    }),
  ]);
  remote = { server: remoteServer, token: await signIn(remoteServer, "remote") };
  comfy = { server: comfyServer, token: await signIn(comfyServer, "comfy") };
});

afterAll(async () => {
  releaseGate();
  await Promise.all([remote?.server.stop(), comfy?.server.stop()]);
  await Promise.all([chatStub, a1111Stub, comfyStub, speechStub].map((stub) => stub?.close()));
});

describe("GET /api/health names each capability's provider kind", () => {
  it("chat on its own server, images on AUTOMATIC1111; the other fields stay", async () => {
    const health = await call(remote, "/api/health", { token: null });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: "ok",
      test_mode: true,
      database: "ok",
      job_runner: "ok",
      providers: {
        // The kind only: health answers anyone, and the configured model is the operator's business.
        chat: "openai-compatible",
        speech: "espeak-ng",
        image: "automatic1111",
        sketch: "automatic1111",
        video: "local-renderer",
      },
    });
    expect(health.body.version).toEqual(expect.any(String));
    expect(JSON.stringify(health.body)).not.toContain("stub-chat");
  });

  it("ComfyUI, speech on its own server, the offline assistant", async () => {
    const health = await call(comfy, "/api/health", { token: null });
    expect(health.body.providers).toEqual({
      chat: "offline-assistant",
      speech: "openai-compatible",
      // The kind of server, as AI_IMAGE_PROVIDER names it; the checkpoint goes with each file's provenance.
      image: "comfyui",
      sketch: "comfyui",
      video: "local-renderer",
    });
  });
});

describe("AUTOMATIC1111 through the API", () => {
  it("a prompt goes to txt2img and the PNG is stored as the person's file", async () => {
    const image = await call(remote, "/api/creative-tools/image/generate", {
      json: { prompt: "a lighthouse at dusk" },
    });
    expect(image.status).toBe(201);
    expect(image.body).toMatchObject({ image_url: expect.stringMatching(/^\/media\//), provider: "automatic1111" });
    const sent = a1111Stub.requests.find(
      (request) => request.path === "/sdapi/v1/txt2img" && request.json.prompt === "a lighthouse at dusk",
    )!;
    expect(sent.json).toMatchObject({ width: 512, height: 512, batch_size: 1, save_images: false });
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from("studio:s3cret").toString("base64")}`);
    const file = await fetch(remote.server.url + image.body.image_url, {
      headers: { Authorization: `Bearer ${remote.token}` },
    });
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await file.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });

  it("a sketch goes to img2img as init_images with the style's words", async () => {
    const result = await call(remote, "/api/ai/sketch2image", {
      json: { image_data: await sketchDataUrl(), style: "painting" },
    });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({
      image: expect.stringMatching(/^\/media\//),
      style: "painting",
      provider: "automatic1111",
    });
    const sent = a1111Stub.requests.find((request) => request.path === "/sdapi/v1/img2img")!;
    expect(sent.json.prompt).toMatch(/oil painting/);
    expect(sent.json.denoising_strength).toBeGreaterThan(0);
    expect(await sharp(Buffer.from(sent.json.init_images[0], "base64")).metadata()).toMatchObject({
      format: "png",
      width: 512,
      height: 320,
    });
  });

  it("a failing server answers the text in docs/screens.md#error-messages (502), never its body", async () => {
    const failed = await call(remote, "/api/creative-tools/image/generate", { json: { prompt: "please fail" } });
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ detail: "Image generation failed. Try again." });
    expect(failed.text).not.toContain(SECRET);
  });
});

describe("ComfyUI through the API (the shipped workflow, found by the built server)", () => {
  it("a prompt queues the shipped text-to-image workflow with the prompt and checkpoint, follows the history, fetches the view", async () => {
    const before = comfyStub.requests.length;
    const image = await call(comfy, "/api/creative-tools/image/generate", { json: { prompt: 'a "quoted" fox' } });
    expect(image.status).toBe(201);
    expect(image.body.provider).toBe("comfyui:test-ckpt.safetensors");
    const sent = comfyStub.requests.slice(before);
    expect(sent.map((request) => `${request.method} ${request.path.split("?")[0]}`)).toEqual([
      "POST /prompt",
      "GET /history/job-7",
      "GET /view",
    ]);
    const shipped = JSON.parse(
      fs.readFileSync(path.join(root, "app/ai/image/workflows/comfyui-text-to-image.json"), "utf8"),
    );
    const graph = sent[0].json.prompt;
    expect(Number.isInteger(graph["3"].inputs.seed)).toBe(true);
    shipped["3"].inputs.seed = graph["3"].inputs.seed;
    shipped["4"].inputs.ckpt_name = "test-ckpt.safetensors";
    shipped["5"].inputs.width = 768;
    shipped["5"].inputs.height = 512;
    shipped["6"].inputs.text = 'a "quoted" fox';
    shipped["7"].inputs.text = graph["7"].inputs.text;
    expect(graph).toEqual(shipped);
    const file = await fetch(comfy.server.url + image.body.image_url, {
      headers: { Authorization: `Bearer ${comfy.token}` },
    });
    expect(Buffer.from(await file.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });

  it("a sketch is uploaded, then the shipped sketch workflow loads it by name", async () => {
    const before = comfyStub.requests.length;
    const result = await call(comfy, "/api/ai/sketch2image", {
      json: { image_data: await sketchDataUrl(), style: "cartoon" },
    });
    expect(result.status).toBe(201);
    const sent = comfyStub.requests.slice(before);
    expect(sent.map((request) => `${request.method} ${request.path.split("?")[0]}`)).toEqual([
      "POST /upload/image",
      "POST /prompt",
      "GET /history/job-7",
      "GET /view",
    ]);
    expect((await formDataOf(sent[0])).get("image")).toBeInstanceOf(File);
    const graph = sent[1].json.prompt;
    expect(graph["10"].inputs.image).toBe("uploads/studio-sketch.png");
    expect(graph["6"].inputs.text).toMatch(/cartoon/);
  });

  it("a job whose status reports an error answers the text in docs/screens.md#error-messages (502)", async () => {
    const failed = await call(comfy, "/api/creative-tools/image/generate", { json: { prompt: "please fail" } });
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ detail: "Image generation failed. Try again." });
    expect(failed.text).not.toContain("CUDA");
  });

  it("speech comes from its own server", async () => {
    const spoken = await call(comfy, "/api/voice/generate", { json: { text: "Hello", voice_id: "bm_george" } });
    expect(spoken.status).toBe(201);
    expect(speechStub.requests.at(-1)!.json).toEqual({
      model: "kokoro",
      input: "Hello",
      voice: "bm_george",
      response_format: "wav",
    });
  });
});

describe("POST /api/assistant/stream", () => {
  it("streams the OpenAI-compatible server's pieces as delta events, then [DONE]", async () => {
    const answer = await call(remote, "/api/assistant/stream", { json: { message: "hi there" } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(answer.headers.get("x-assistant-provider")).toBe("openai-compatible:stub-chat");
    expect(eventsOf(answer.text)).toEqual([
      ...["Streamed", " reply", " to: ", "hi there"].map((delta) => JSON.stringify({ delta })),
      "[DONE]",
    ]);
    const sent = chatStub.requests.find((request) => request.json?.messages?.[1]?.content === "hi there")!;
    expect(sent.json.stream).toBe(true);
    expect(sent.json.model).toBe("stub-chat");
  });

  it("each event passes the front door as it comes: not compressed, not held back for the next", async () => {
    const response = await fetch(remote.server.url + "/api/assistant/stream", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${remote.token}`,
        "Content-Type": "application/json",
        "Accept-Encoding": "br, gzip",
      },
      body: JSON.stringify({ message: "gated" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    // The model server holds the rest of the reply until this first piece has reached us.
    while (!text.includes("\n\n")) {
      const { done, value } = await reader.read();
      expect(done).toBe(false);
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe(`data: ${JSON.stringify({ delta: "Hello" })}\n\n`);
    releaseGate();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(eventsOf(text)).toEqual(['{"delta":"Hello"}', '{"delta":" there"}', '{"delta":"!"}', "[DONE]"]);
  });

  it("a provider failing midway: an error event with the text in docs/screens.md#error-messages, and no [DONE]", async () => {
    const answer = await call(remote, "/api/assistant/stream", { json: { message: "break midway" } });
    expect(answer.status).toBe(200);
    expect(eventsOf(answer.text)).toEqual(['{"delta":"Partial"}', JSON.stringify({ error: "Something went wrong." })]);
  });

  it("a provider failing before any text: 502 JSON like /api/assistant/message", async () => {
    const answer = await call(remote, "/api/assistant/stream", { json: { message: "please fail" } });
    expect(answer.status).toBe(502);
    expect(answer.headers.get("content-type")).toMatch(/application\/json/);
    expect(answer.body).toEqual({ detail: "Something went wrong." });
    expect(answer.text).not.toContain(SECRET);
  });

  it("the offline assistant streams too: word by word, the same reply as /api/assistant/message", async () => {
    const question = "How do I use the Drawing Pad?";
    const streamed = await call(comfy, "/api/assistant/stream", { json: { message: question } });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("x-assistant-provider")).toBe("offline-assistant");
    const events = eventsOf(streamed.text);
    expect(events.at(-1)).toBe("[DONE]");
    const deltas = events.slice(0, -1).map((event) => JSON.parse(event).delta as string);
    expect(deltas.length).toBeGreaterThan(5);
    const whole = await call(comfy, "/api/assistant/message", { json: { message: question } });
    expect(deltas.join("")).toBe(whole.body.reply);
    expect(whole.body.reply).toContain("Drawing Pad (/drawing)");
  });

  it("bad input is a 4xx JSON detail, not a stream; no session is 401; only POST", async () => {
    for (const [json, status] of [
      [{}, 422],
      [{ message: "   " }, 422],
      [{ message: 42 }, 422],
      [{ message: "x".repeat(4001) }, 422],
      ["{not json", 400],
    ] as const) {
      const answer = await call(comfy, "/api/assistant/stream", { json });
      expect(answer.status, JSON.stringify(json)).toBe(status);
      expect(answer.headers.get("content-type")).toMatch(/application\/json/);
      expect(answer.body.detail).toEqual(expect.any(String));
    }
    const anonymous = await call(comfy, "/api/assistant/stream", { json: { message: "hi" }, token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail).toEqual(expect.any(String));
    expect((await call(comfy, "/api/assistant/stream")).status).toBe(405);
  });
});
