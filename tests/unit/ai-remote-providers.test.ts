import { afterEach, describe, expect, it } from "vitest";
import { readAiConfig, type RemoteCallConfig } from "~/ai/config.server";
import { ElevenLabsSpeech } from "~/ai/speech/elevenlabs-speech.server";
import { FAILURE_TEXT, ProviderError } from "~/ai/errors.server";
import { errorResponse } from "~/lib/http/responder.server";
import { providerFailure } from "~/services/provider-failure.server";

/** What the API answers for a provider failure: the service's DomainError through the one responder. */
const providerErrorResponse = (error: ProviderError, capability: "chat") =>
  errorResponse(providerFailure(error, capability));
import { OpenAiChat, OpenAiImages, OpenAiSpeech } from "~/ai/chat/openai-compatible.server";
import { ReplicateVideo } from "~/ai/video/replicate-video.server";
import { STUDIO_SYSTEM_PROMPT } from "~/ai/chat/chat.server";
import { readWavHeader } from "~/ai/speech/wav";
import type { VideoProgress } from "~/ai/video/video.server";
import { formDataOf, sendJson, startStubServer, TINY_PNG, tinyWav, type StubServer } from "../support/ai-stub-server";

const KEY = "sk-test-secret-key-0123456789";
const FAST: RemoteCallConfig = { timeoutMs: 2000, totalTimeoutMs: 10_000, maxRetries: 2, retryBaseMs: 10 };
const MiB = 1024 * 1024;

let stub: StubServer | null = null;
afterEach(async () => {
  await stub?.close();
  stub = null;
});

function openaiConfig(url: string) {
  return {
    baseUrl: `${url}/v1`,
    apiKey: KEY,
    chatModel: "llama3.2",
    speechModel: "tts-1",
    speechVoices: ["alloy", "nova"],
    imageModel: "gpt-image-1",
    imageSize: "512x512",
  };
}

describe("OpenAI-compatible chat", () => {
  it("sends POST /v1/chat/completions with the model, a system prompt and the question, and a bearer key", async () => {
    stub = await startStubServer((_request, response) =>
      sendJson(response, 200, { choices: [{ message: { role: "assistant", content: "  Paris.  " } }] }),
    );
    const chat = new OpenAiChat(openaiConfig(stub.url), FAST);
    const answer = await chat.reply("Capital of France?");
    expect(answer).toEqual({ reply: "Paris.", provider: "openai-compatible:llama3.2" });
    expect(stub.requests).toHaveLength(1);
    const [sent] = stub.requests;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.json).toEqual({
      model: "llama3.2",
      messages: [
        { role: "system", content: STUDIO_SYSTEM_PROMPT },
        { role: "user", content: "Capital of France?" },
      ],
    });
  });

  it("sends no Authorization header when no key is configured (Ollama, llama.cpp)", async () => {
    stub = await startStubServer((_request, response) =>
      sendJson(response, 200, { choices: [{ message: { content: "ok" } }] }),
    );
    await new OpenAiChat({ ...openaiConfig(stub.url), apiKey: null }, FAST).reply("hi");
    expect(stub.requests[0].headers.authorization).toBeUndefined();
  });

  it("retries a 429 and a 503 (honouring Retry-After), then succeeds", async () => {
    let calls = 0;
    stub = await startStubServer((_request, response) => {
      calls++;
      if (calls === 1) return sendJson(response, 429, { error: "slow down" }, { "Retry-After": "0" });
      if (calls === 2) return sendJson(response, 503, { error: "busy" });
      sendJson(response, 200, { choices: [{ message: { content: "third time lucky" } }] });
    });
    const answer = await new OpenAiChat(openaiConfig(stub.url), FAST).reply("hi");
    expect(answer.reply).toBe("third time lucky");
    expect(stub.requests).toHaveLength(3);
  });

  it("gives up after the bounded retries: 1 + maxRetries attempts, then 'unavailable' (502)", async () => {
    stub = await startStubServer((_request, response) => sendJson(response, 500, { error: `internal: key ${KEY}` }));
    const error = await new OpenAiChat(openaiConfig(stub.url), FAST).reply("hi").catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.failure).toBe("unavailable");
    expect(providerFailure(error, "chat").status).toBe(502);
    expect(stub.requests).toHaveLength(3);
    // Neither the provider's body nor the key reaches the message.
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain("internal");
  });

  it("does not retry a 401/400 (rejected), and the API answer is the text in docs/screens.md#error-messages without provider details", async () => {
    stub = await startStubServer((_request, response) =>
      sendJson(response, 401, { error: { message: `Incorrect API key provided: ${KEY}` } }),
    );
    const error = await new OpenAiChat(openaiConfig(stub.url), FAST).reply("hi").catch((e) => e);
    expect(error.failure).toBe("rejected");
    expect(stub.requests).toHaveLength(1);
    const response = providerErrorResponse(error, "chat");
    expect(response.status).toBe(502);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ detail: FAILURE_TEXT.chat });
    expect(body).not.toContain(KEY);
  });

  it("times out each attempt (504 after the retries)", async () => {
    stub = await startStubServer(() => {
      // never answers
    });
    const started = Date.now();
    const error = await new OpenAiChat(openaiConfig(stub.url), {
      timeoutMs: 150,
      totalTimeoutMs: 10_000,
      maxRetries: 1,
      retryBaseMs: 10,
    })
      .reply("hi")
      .catch((e) => e);
    expect(error.failure).toBe("timeout");
    expect(providerFailure(error, "chat").status).toBe(504);
    expect(stub.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("ends the whole call at the overall deadline, however many retries are left (504)", async () => {
    stub = await startStubServer(() => {
      // never answers
    });
    const started = Date.now();
    const error = await new OpenAiChat(openaiConfig(stub.url), {
      timeoutMs: 5000,
      totalTimeoutMs: 300,
      maxRetries: 5,
      retryBaseMs: 10,
    })
      .reply("hi")
      .catch((e) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.failure).toBe("timeout");
    expect(providerFailure(error, "chat").status).toBe(504);
    expect(stub.requests).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2000);
    expect(JSON.parse(await providerErrorResponse(error, "chat").text())).toEqual({ detail: FAILURE_TEXT.chat });
  });

  it("does not wait out a Retry-After pause that ends past the deadline: a timeout at once", async () => {
    stub = await startStubServer((_request, response) =>
      sendJson(response, 503, { error: "busy" }, { "Retry-After": "5" }),
    );
    const started = Date.now();
    const error = await new OpenAiChat(openaiConfig(stub.url), {
      timeoutMs: 2000,
      totalTimeoutMs: 1000,
      maxRetries: 3,
      retryBaseMs: 10,
    })
      .reply("hi")
      .catch((e) => e);
    expect(error.failure).toBe("timeout");
    expect(stub.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it("counts the pauses between retries against the deadline", async () => {
    // Each 503 asks for a 0.2 s pause: four attempts would need 0.6 s of pauses, the deadline is 0.45 s.
    stub = await startStubServer((_request, response) =>
      sendJson(response, 503, { error: "busy" }, { "Retry-After": "0.2" }),
    );
    const error = await new OpenAiChat(openaiConfig(stub.url), {
      timeoutMs: 2000,
      totalTimeoutMs: 450,
      maxRetries: 3,
      retryBaseMs: 10,
    })
      .reply("hi")
      .catch((e) => e);
    expect(error.failure).toBe("timeout");
    expect(stub.requests.length).toBeGreaterThanOrEqual(2);
    expect(stub.requests.length).toBeLessThan(4);
  });

  it("bounds reading a slow answer by the deadline too", async () => {
    stub = await startStubServer((_request, response) => {
      // Headers at once, then the body trickles and never ends.
      response.writeHead(200, { "Content-Type": "application/json" });
      response.write('{"choices": [');
    });
    const started = Date.now();
    const error = await new OpenAiChat(openaiConfig(stub.url), {
      timeoutMs: 5000,
      totalTimeoutMs: 300,
      maxRetries: 0,
      retryBaseMs: 10,
    })
      .reply("hi")
      .catch((e) => e);
    expect(error.failure).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("a 200 without message content is a bad response", async () => {
    stub = await startStubServer((_request, response) => sendJson(response, 200, { choices: [] }));
    const error = await new OpenAiChat(openaiConfig(stub.url), FAST).reply("hi").catch((e) => e);
    expect(error.failure).toBe("bad_response");
  });
});

describe("OpenAI-compatible speech", () => {
  it("lists the configured voices and posts /v1/audio/speech for WAV", async () => {
    stub = await startStubServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "audio/wav" });
      response.end(tinyWav());
    });
    const speech = new OpenAiSpeech(openaiConfig(stub.url), FAST, MiB);
    expect(await speech.listVoices()).toEqual([
      { voice_id: "alloy", name: "Alloy" },
      { voice_id: "nova", name: "Nova" },
    ]);
    const audio = await speech.synthesize("Hello world", "nova");
    expect(audio.contentType).toBe("audio/wav");
    expect(readWavHeader(audio.bytes)).toMatchObject({ sampleRate: 22050, channels: 1 });
    const [sent] = stub.requests;
    expect(sent.path).toBe("/v1/audio/speech");
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.json).toEqual({ model: "tts-1", input: "Hello world", voice: "nova", response_format: "wav" });
  });

  it("refuses an answer that is not WAV, and one larger than the limit", async () => {
    stub = await startStubServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "audio/mpeg" });
      response.end(Buffer.alloc(2048, 1));
    });
    expect(
      (await new OpenAiSpeech(openaiConfig(stub.url), FAST, MiB).synthesize("x", "nova").catch((e) => e)).failure,
    ).toBe("bad_response");
    expect(
      (await new OpenAiSpeech(openaiConfig(stub.url), FAST, 1000).synthesize("x", "nova").catch((e) => e)).failure,
    ).toBe("bad_response");
  });
});

describe("OpenAI-compatible images", () => {
  it("generates with POST /v1/images/generations and reads b64_json", async () => {
    stub = await startStubServer((_request, response) =>
      sendJson(response, 200, { data: [{ b64_json: TINY_PNG.toString("base64") }] }),
    );
    const image = await new OpenAiImages(openaiConfig(stub.url), FAST, MiB).generate("a red dot");
    expect(image.contentType).toBe("image/png");
    expect(image.bytes.equals(TINY_PNG)).toBe(true);
    expect(stub.requests[0].path).toBe("/v1/images/generations");
    expect(stub.requests[0].json).toEqual({ model: "gpt-image-1", prompt: "a red dot", n: 1, size: "512x512" });
  });

  it("fetches a `url` answer and converts a JPEG to PNG", async () => {
    const sharp = (await import("sharp")).default;
    const jpeg = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#00f" } })
      .jpeg()
      .toBuffer();
    stub = await startStubServer((request, response) => {
      if (request.path === "/v1/images/generations")
        return sendJson(response, 200, { data: [{ url: `${stub!.url}/files/out.jpg` }] });
      response.writeHead(200, { "Content-Type": "image/jpeg" });
      response.end(jpeg);
    });
    const image = await new OpenAiImages(openaiConfig(stub.url), FAST, MiB).generate("blue");
    expect(image.contentType).toBe("image/png");
    expect((await sharp(image.bytes).metadata()).format).toBe("png");
    expect(stub.requests.map((r) => r.path)).toEqual(["/v1/images/generations", "/files/out.jpg"]);
  });

  it("refuses a link that is not http(s)", async () => {
    stub = await startStubServer((_request, response) =>
      sendJson(response, 200, { data: [{ url: "file:///etc/passwd" }] }),
    );
    expect((await new OpenAiImages(openaiConfig(stub.url), FAST, MiB).generate("x").catch((e) => e)).failure).toBe(
      "bad_response",
    );
  });

  it("sends a sketch to POST /v1/images/edits as multipart with the style's prompt", async () => {
    stub = await startStubServer((_request, response) =>
      sendJson(response, 200, { data: [{ b64_json: TINY_PNG.toString("base64") }] }),
    );
    const image = await new OpenAiImages(openaiConfig(stub.url), FAST, MiB).stylise(TINY_PNG, "cartoon");
    expect(image.contentType).toBe("image/png");
    const [sent] = stub.requests;
    expect(sent.path).toBe("/v1/images/edits");
    expect(sent.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const form = await formDataOf(sent);
    expect(form.get("model")).toBe("gpt-image-1");
    expect(form.get("prompt")).toMatch(/cartoon/i);
    expect(form.get("n")).toBe("1");
    const file = form.get("image") as File;
    expect(file.name).toBe("sketch.png");
    expect(file.type).toBe("image/png");
    expect(Buffer.from(await file.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });
});

describe("ElevenLabs speech", () => {
  it("lists voices with the xi-api-key header and wraps the PCM answer as WAV", async () => {
    stub = await startStubServer((request, response) => {
      if (request.path === "/v1/voices")
        return sendJson(response, 200, { voices: [{ voice_id: "v1", name: "Rachel", extra: 1 }, { bad: true }] });
      response.writeHead(200, { "Content-Type": "application/octet-stream" });
      response.end(Buffer.alloc(400));
    });
    const speech = new ElevenLabsSpeech({ baseUrl: stub.url, apiKey: KEY, model: "eleven_multilingual_v2" }, FAST, MiB);
    expect(await speech.listVoices()).toEqual([{ voice_id: "v1", name: "Rachel" }]);
    const audio = await speech.synthesize("Hi there", "v1");
    expect(readWavHeader(audio.bytes)).toEqual({ sampleRate: 22050, channels: 1, bitsPerSample: 16, dataBytes: 400 });
    const [list, tts] = stub.requests;
    expect(list.headers["xi-api-key"]).toBe(KEY);
    expect(list.headers.authorization).toBeUndefined();
    expect(tts.method).toBe("POST");
    expect(tts.path).toBe("/v1/text-to-speech/v1?output_format=pcm_22050");
    expect(tts.json).toEqual({ text: "Hi there", model_id: "eleven_multilingual_v2" });
  });
});

describe("Replicate video", () => {
  const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from("....webm...."), Buffer.alloc(64)]);

  function replicateStub(statuses: string[]) {
    let polls = 0;
    return startStubServer((request, response) => {
      if (request.method === "POST") return sendJson(response, 201, { id: "pred-1", status: "starting" });
      if (request.path === "/v1/predictions/pred-1") {
        const status = statuses[Math.min(polls++, statuses.length - 1)];
        return sendJson(response, 200, {
          id: "pred-1",
          status,
          output: status === "succeeded" ? `${stub!.url}/out/clip.webm` : null,
        });
      }
      response.writeHead(200, { "Content-Type": "video/webm" });
      response.end(webm);
    });
  }

  const run = (provider: ReplicateVideo, resume = { progress: 0, externalId: null as string | null }) => {
    const reports: VideoProgress[] = [];
    const result = provider.run({
      prompt: "a cat surfing",
      resume,
      signal: new AbortController().signal,
      report: async (u) => void reports.push(u),
    });
    return { result, reports };
  };

  it("creates a prediction, polls it, records its id, downloads the output", async () => {
    stub = await replicateStub(["starting", "processing", "succeeded"]);
    const provider = new ReplicateVideo(
      { baseUrl: `${stub.url}/v1`, apiToken: KEY, model: "acme/text2video" },
      FAST,
      MiB,
      10,
    );
    const { result, reports } = run(provider);
    const video = await result;
    expect(video.contentType).toBe("video/webm");
    expect(video.bytes.equals(webm)).toBe(true);
    const [create] = stub.requests;
    expect(create.path).toBe("/v1/models/acme/text2video/predictions");
    expect(create.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(create.json).toEqual({ input: { prompt: "a cat surfing" } });
    expect(stub.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/models/acme/text2video/predictions",
      "GET /v1/predictions/pred-1",
      "GET /v1/predictions/pred-1",
      "GET /v1/predictions/pred-1",
      "GET /out/clip.webm",
    ]);
    expect(reports[0]).toMatchObject({ status: "queued", externalId: "pred-1" });
    expect(reports.map((r) => r.status)).toEqual(["queued", "queued", "processing", "finishing"]);
  });

  it("resumes an interrupted job by its recorded prediction id (no new prediction)", async () => {
    stub = await replicateStub(["succeeded"]);
    const provider = new ReplicateVideo(
      { baseUrl: `${stub.url}/v1`, apiToken: KEY, model: "acme/text2video" },
      FAST,
      MiB,
      10,
    );
    await run(provider, { progress: 0.4, externalId: "pred-1" }).result;
    expect(stub.requests.some((r) => r.method === "POST")).toBe(false);
  });

  it("a failed prediction is a rejected job", async () => {
    stub = await replicateStub(["processing", "failed"]);
    const provider = new ReplicateVideo(
      { baseUrl: `${stub.url}/v1`, apiToken: KEY, model: "acme/text2video" },
      FAST,
      MiB,
      10,
    );
    expect((await run(provider).result.catch((e) => e)).failure).toBe("rejected");
  });
});

describe("configuration", () => {
  it("defaults to no remote provider; reads AI_*, ELEVENLABS_* and REPLICATE_*; refuses bad values", () => {
    const none = readAiConfig({});
    expect(none.chat).toBeNull();
    expect(none.speech).toBeNull();
    expect(none.image).toBeNull();
    expect(none.elevenlabs).toBeNull();
    expect(none.replicate).toBeNull();
    expect(none.remote).toEqual({
      timeoutMs: 60_000,
      totalTimeoutMs: 120_000,
      maxRetries: 2,
      retryBaseMs: 500,
      downloadHosts: [],
    });
    expect(none.videoMaxActiveJobs).toBe(3);

    const full = readAiConfig({
      AI_BASE_URL: "http://localhost:11434/v1/",
      AI_CHAT_MODEL: "llama3.2",
      AI_SPEECH_VOICES: "a, b",
      ELEVENLABS_API_KEY: "el",
      REPLICATE_API_TOKEN: "r8",
      REPLICATE_VIDEO_MODEL: "owner/model",
      AI_TIMEOUT_SECONDS: "5",
      AI_TOTAL_TIMEOUT_SECONDS: "12.5",
      AI_MAX_RETRIES: "0",
      VIDEO_MAX_ACTIVE_JOBS: "1",
    });
    expect(full.chat).toMatchObject({
      baseUrl: "http://localhost:11434/v1",
      apiKey: null,
      chatModel: "llama3.2",
      speechModel: null,
      speechVoices: ["a", "b"],
    });
    expect(full.elevenlabs).toEqual({
      baseUrl: "https://api.elevenlabs.io",
      apiKey: "el",
      model: "eleven_multilingual_v2",
    });
    expect(full.replicate).toEqual({ baseUrl: "https://api.replicate.com/v1", apiToken: "r8", model: "owner/model" });
    expect(full.remote).toMatchObject({ timeoutMs: 5000, totalTimeoutMs: 12_500, maxRetries: 0 });
    expect(full.videoMaxActiveJobs).toBe(1);

    expect(() => readAiConfig({ AI_BASE_URL: "ftp://x" })).toThrow(/AI_BASE_URL/);
    expect(() => readAiConfig({ AI_TIMEOUT_SECONDS: "soon" })).toThrow(/AI_TIMEOUT_SECONDS/);
    expect(() => readAiConfig({ AI_TOTAL_TIMEOUT_SECONDS: "0" })).toThrow(/AI_TOTAL_TIMEOUT_SECONDS/);
    for (const bad of ["0", "2.5", "many"])
      expect(() => readAiConfig({ VIDEO_MAX_ACTIVE_JOBS: bad })).toThrow(/VIDEO_MAX_ACTIVE_JOBS/);
    expect(() => readAiConfig({ REPLICATE_API_TOKEN: "t", REPLICATE_VIDEO_MODEL: "no-slash" })).toThrow(
      /REPLICATE_VIDEO_MODEL/,
    );
  });
});
