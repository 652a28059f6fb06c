import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { Automatic1111Images } from "~/ai/image/automatic1111-image.server";
import { ComfyUiImages, fillWorkflow } from "~/ai/image/comfyui-image.server";
import { readAiConfig, type Automatic1111Config, type ComfyUiConfig, type RemoteCallConfig } from "~/ai/config.server";
import { FAILURE_TEXT, ProviderError } from "~/ai/errors.server";
import { chooseProviders, providerSummary } from "~/ai/providers.server";
import { DIFFUSION_NEGATIVE_PROMPT, SKETCH_STYLE_DIFFUSION } from "~/ai/image/sketch.server";
import { errorResponse } from "~/lib/http/responder.server";
import { providerFailure } from "~/services/provider-failure.server";
import shippedSketchWorkflow from "~/ai/image/workflows/comfyui-sketch-to-image.json";
import shippedTextWorkflow from "~/ai/image/workflows/comfyui-text-to-image.json";
import {
  automatic1111Handler,
  comfyUiHandler,
  formDataOf,
  sendJson,
  startStubServer,
  TINY_PNG,
  type StubServer,
} from "../support/ai-stub-server";

/**
 * The two diffusion servers self-hosters run, each against a local stub that speaks its HTTP API:
 * the exact requests, and every failure (a 500, a timeout, a job that reports an error, a malformed
 * answer) ending as the text in docs/screens.md#error-messages, never the provider's own words.
 */
const FAST: RemoteCallConfig = { timeoutMs: 2000, totalTimeoutMs: 10_000, maxRetries: 1, retryBaseMs: 10 };
const MiB = 1024 * 1024;
const SECRET = "provider-secret-body-xyz";

let stub: StubServer | null = null;
afterEach(async () => {
  await stub?.close();
  stub = null;
});

/** What the API would answer for the failure: the status and body the person sees. */
async function seenByPerson(error: unknown, capability: "image" | "sketch") {
  expect(error).toBeInstanceOf(ProviderError);
  const response = errorResponse(providerFailure(error as ProviderError, capability));
  const body = await response.text();
  expect(JSON.parse(body)).toEqual({ detail: FAILURE_TEXT[capability] });
  expect(body).not.toContain(SECRET);
  expect((error as Error).message).not.toContain(SECRET);
  return response.status;
}

const sketchPng = () =>
  sharp({ create: { width: 800, height: 500, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500"><circle cx="400" cy="250" r="120" fill="red"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();

function a1111(url: string, overrides: Partial<Automatic1111Config> = {}): Automatic1111Config {
  return { baseUrl: url, apiKey: null, model: null, width: 512, height: 512, ...overrides };
}

describe("AUTOMATIC1111", () => {
  it("text to image: POST /sdapi/v1/txt2img with the prompt and size; the base64 PNG is the image", async () => {
    stub = await startStubServer(automatic1111Handler());
    const provider = new Automatic1111Images(
      a1111(stub.url, { model: "dreamshaper_8.safetensors", apiKey: "studio:s3cret" }),
      FAST,
      MiB,
    );
    expect(provider.id).toBe("automatic1111:dreamshaper_8.safetensors");
    const image = await provider.generate('a "red" fox \\ in snow');
    expect(image).toMatchObject({ contentType: "image/png", extension: "png" });
    expect(image.bytes.equals(TINY_PNG)).toBe(true);
    expect(stub.requests).toHaveLength(1);
    const [sent] = stub.requests;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/sdapi/v1/txt2img");
    expect(sent.headers["content-type"]).toBe("application/json");
    // --api-auth user:password goes as Basic.
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from("studio:s3cret").toString("base64")}`);
    expect(sent.json).toEqual({
      prompt: 'a "red" fox \\ in snow',
      negative_prompt: DIFFUSION_NEGATIVE_PROMPT,
      width: 512,
      height: 512,
      batch_size: 1,
      n_iter: 1,
      send_images: true,
      save_images: false,
      override_settings: { sd_model_checkpoint: "dreamshaper_8.safetensors" },
    });
  });

  it("sketch to image: POST /sdapi/v1/img2img with the sketch as init_images, the style's words and denoising strength", async () => {
    stub = await startStubServer(automatic1111Handler());
    const provider = new Automatic1111Images(a1111(stub.url), FAST, MiB);
    expect(provider.id).toBe("automatic1111");
    const image = await provider.stylise(await sketchPng(), "cartoon");
    expect(image.bytes.equals(TINY_PNG)).toBe(true);
    const [sent] = stub.requests;
    expect(sent.path).toBe("/sdapi/v1/img2img");
    expect(sent.headers.authorization).toBeUndefined();
    const { init_images, ...rest } = sent.json;
    // 800x500 fitted into 512x512 with its proportions, sides a multiple of 8.
    expect(rest).toEqual({
      prompt: SKETCH_STYLE_DIFFUSION.cartoon.prompt,
      denoising_strength: SKETCH_STYLE_DIFFUSION.cartoon.denoisingStrength,
      resize_mode: 0,
      width: 512,
      height: 320,
      negative_prompt: DIFFUSION_NEGATIVE_PROMPT,
      batch_size: 1,
      n_iter: 1,
      send_images: true,
      save_images: false,
    });
    expect(init_images).toHaveLength(1);
    const sentSketch = await sharp(Buffer.from(init_images[0], "base64")).raw().toBuffer({ resolveWithObject: true });
    expect(sentSketch.info).toMatchObject({ format: "raw", width: 512, height: 320, channels: 3 });
    // Transparent paper became white, the red circle stayed red.
    const pixel = (x: number, y: number) => [...sentSketch.data.subarray((y * 512 + x) * 3, (y * 512 + x) * 3 + 3)];
    expect(pixel(5, 5)).toEqual([255, 255, 255]);
    expect(pixel(256, 160)).toEqual([255, 0, 0]);
  });

  it("a JPEG answer is stored as PNG", async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#0a0" } })
      .jpeg()
      .toBuffer();
    stub = await startStubServer(automatic1111Handler({ image: jpeg }));
    const image = await new Automatic1111Images(a1111(stub.url), FAST, MiB).generate("green");
    expect((await sharp(image.bytes).metadata()).format).toBe("png");
  });

  it("a 500 (after the retry) is 502 with the text in docs/screens.md#error-messages, never the server's body", async () => {
    stub = await startStubServer(
      automatic1111Handler({
        answer: (_request, response) => sendJson(response, 500, { error: "RuntimeError", detail: SECRET }),
      }),
    );
    const error = await new Automatic1111Images(a1111(stub.url), FAST, MiB).generate("x").catch((e) => e);
    expect(error.failure).toBe("unavailable");
    expect(stub.requests).toHaveLength(2);
    expect(await seenByPerson(error, "image")).toBe(502);
  });

  it("a server that does not answer in time is 504", async () => {
    stub = await startStubServer(() => {
      // GPU busy forever
    });
    const error = await new Automatic1111Images(
      a1111(stub.url),
      { timeoutMs: 150, totalTimeoutMs: 1000, maxRetries: 0, retryBaseMs: 10 },
      MiB,
    )
      .stylise(await sketchPng(), "painting")
      .catch((e) => e);
    expect(error.failure).toBe("timeout");
    expect(await seenByPerson(error, "sketch")).toBe(504);
  });

  it("a malformed answer (no images, not an image, not JSON) is 502", async () => {
    for (const body of [{ images: [] }, { images: [Buffer.from(SECRET).toString("base64")] }, { detail: SECRET }]) {
      stub = await startStubServer(
        automatic1111Handler({ answer: (_request, response) => sendJson(response, 200, body) }),
      );
      const error = await new Automatic1111Images(a1111(stub.url), FAST, MiB).generate("x").catch((e) => e);
      expect(error.failure).toBe("bad_response");
      expect(await seenByPerson(error, "image")).toBe(502);
      await stub.close();
      stub = null;
    }
    stub = await startStubServer(
      automatic1111Handler({ answer: (_request, response) => response.end(`<html>${SECRET}</html>`) }),
    );
    expect((await new Automatic1111Images(a1111(stub.url), FAST, MiB).generate("x").catch((e) => e)).failure).toBe(
      "bad_response",
    );
  });
});

function comfy(url: string, overrides: Partial<ComfyUiConfig> = {}): ComfyUiConfig {
  return {
    baseUrl: url,
    apiKey: null,
    checkpoint: "sd_xl_base_1.0.safetensors",
    textWorkflow: { source: "shipped", graph: shippedTextWorkflow as Record<string, unknown> },
    sketchWorkflow: { source: "shipped", graph: shippedSketchWorkflow as Record<string, unknown> },
    width: 1024,
    height: 768,
    pollIntervalMs: 20,
    ...overrides,
  };
}

describe("ComfyUI", () => {
  it("fills placeholders inside string values: a prompt with quotes and braces stays one string", () => {
    const graph = {
      "1": {
        class_type: "X",
        inputs: { text: "photo of {{prompt}}, 4k", seed: "{{seed}}", keep: "{{unknown}}", link: ["4", 0] },
      },
    };
    const prompt = 'a "quoted" \\ prompt", "evil": {"class_type": "Y"} {{seed}}';
    const filled = fillWorkflow(graph, { text: { prompt }, numbers: { seed: 42 } }) as any;
    expect(filled["1"].inputs).toEqual({
      text: `photo of ${prompt}, 4k`,
      seed: 42,
      keep: "{{unknown}}",
      link: ["4", 0],
    });
    expect(Object.keys(filled)).toEqual(["1"]);
    // The configured workflow is left as it was.
    expect(graph["1"].inputs.seed).toBe("{{seed}}");
  });

  it("text to image: POST /prompt with the shipped workflow filled in, polls GET /history/{id}, fetches GET /view", async () => {
    stub = await startStubServer(comfyUiHandler({ pendingPolls: 2 }));
    const provider = new ComfyUiImages(comfy(stub.url, { apiKey: "comfy-token" }), FAST, MiB);
    expect(provider.id).toBe("comfyui:sd_xl_base_1.0.safetensors");
    const image = await provider.generate('a "lighthouse" at night');
    expect(image.bytes.equals(TINY_PNG)).toBe(true);
    expect(stub.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /prompt",
      "GET /history/job-7",
      "GET /history/job-7",
      "GET /history/job-7",
      "GET /view?filename=studio_00001_.png&subfolder=out&type=output",
    ]);
    const queued = stub.requests[0];
    expect(queued.headers.authorization).toBe("Bearer comfy-token");
    expect(typeof queued.json.client_id).toBe("string");
    const graph = queued.json.prompt;
    expect(graph["4"].inputs.ckpt_name).toBe("sd_xl_base_1.0.safetensors");
    expect(graph["6"].inputs.text).toBe('a "lighthouse" at night');
    expect(graph["7"].inputs.text).toBe(DIFFUSION_NEGATIVE_PROMPT);
    expect(graph["5"].inputs).toEqual({ width: 1024, height: 768, batch_size: 1 });
    expect(Number.isInteger(graph["3"].inputs.seed)).toBe(true);
    expect(JSON.stringify(graph)).not.toContain("{{");
    // Everything else is the shipped workflow as it is.
    expect(Object.keys(graph)).toEqual(Object.keys(shippedTextWorkflow));
    expect(graph["3"].inputs.model).toEqual(["4", 0]);
  });

  it("sketch to image: POST /upload/image, then the sketch workflow with {{image}} and the style's denoise", async () => {
    stub = await startStubServer(comfyUiHandler());
    const image = await new ComfyUiImages(comfy(stub.url), FAST, MiB).stylise(await sketchPng(), "futuristic");
    expect(image.bytes.equals(TINY_PNG)).toBe(true);
    expect(stub.requests.map((request) => `${request.method} ${new URL(request.path, "http://x").pathname}`)).toEqual([
      "POST /upload/image",
      "POST /prompt",
      "GET /history/job-7",
      "GET /view",
    ]);
    const form = await formDataOf(stub.requests[0]);
    expect(form.get("type")).toBe("input");
    const uploaded = form.get("image") as File;
    expect(uploaded.name).toMatch(/^studio-sketch-[\w-]+\.png$/);
    expect(await sharp(Buffer.from(await uploaded.arrayBuffer())).metadata()).toMatchObject({
      format: "png",
      width: 1024,
      height: 640,
    });
    const graph = stub.requests[1].json.prompt;
    // The upload's subfolder and name, as LoadImage takes it.
    expect(graph["10"]).toEqual({ class_type: "LoadImage", inputs: { image: "uploads/studio-sketch.png" } });
    expect(graph["6"].inputs.text).toBe(SKETCH_STYLE_DIFFUSION.futuristic.prompt);
    expect(graph["3"].inputs.denoise).toBe(SKETCH_STYLE_DIFFUSION.futuristic.denoisingStrength);
    expect(JSON.stringify(graph)).not.toContain("{{");
  });

  it("a 500 from POST /prompt is 502 with the text in docs/screens.md#error-messages", async () => {
    stub = await startStubServer(
      comfyUiHandler({ override: { "/prompt": (_request, response) => sendJson(response, 500, { error: SECRET }) } }),
    );
    const error = await new ComfyUiImages(comfy(stub.url), FAST, MiB).generate("x").catch((e) => e);
    expect(error.failure).toBe("unavailable");
    expect(await seenByPerson(error, "image")).toBe(502);
  });

  it("a job that never finishes ends at the overall deadline: 504", async () => {
    stub = await startStubServer(comfyUiHandler({ neverDone: true }));
    const started = Date.now();
    // 2 s (polls every 20 ms): on a loaded machine a 400 ms deadline could pass during the first request,
    // before any poll. The job never finishes, so only the deadline ends the call, well before 15 s.
    const error = await new ComfyUiImages(comfy(stub.url), { ...FAST, totalTimeoutMs: 2000 }, MiB)
      .generate("x")
      .catch((e) => e);
    expect(error.failure).toBe("timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(stub.requests.filter((request) => request.path.startsWith("/history/")).length).toBeGreaterThan(1);
    expect(await seenByPerson(error, "image")).toBe(504);
  });

  it("a job whose status reports an error fails (502), and its message stays out", async () => {
    stub = await startStubServer(comfyUiHandler({ jobError: true }));
    const error = await new ComfyUiImages(comfy(stub.url), FAST, MiB)
      .stylise(await sketchPng(), "concept")
      .catch((e) => e);
    expect(error.failure).toBe("bad_response");
    expect(error.message).not.toContain("CUDA");
    expect(await seenByPerson(error, "sketch")).toBe(502);
    expect(stub.requests.some((request) => request.path.startsWith("/view"))).toBe(false);
  });

  it("malformed answers are 502: no prompt_id, a history without images, a view that is not an image", async () => {
    const cases: Parameters<typeof comfyUiHandler>[0][] = [
      { override: { "/prompt": (_request, response) => sendJson(response, 200, { number: 1, detail: SECRET }) } },
      {
        override: {
          "/history": (_request, response) =>
            sendJson(response, 200, { "job-7": { outputs: {}, status: { status_str: "success", completed: true } } }),
        },
      },
      { override: { "/view": (_request, response) => response.end(SECRET) } },
      { override: { "/upload/image": (_request, response) => sendJson(response, 200, { detail: SECRET }) } },
    ];
    for (const [index, options] of cases.entries()) {
      stub = await startStubServer(comfyUiHandler(options));
      const provider = new ComfyUiImages(comfy(stub.url), FAST, MiB);
      const error = await (
        index === 3 ? provider.stylise(await sketchPng(), "realistic") : provider.generate("x")
      ).catch((e) => e);
      expect(error.failure, `case ${index}`).toBe("bad_response");
      expect(await seenByPerson(error, index === 3 ? "sketch" : "image")).toBe(502);
      await stub.close();
      stub = null;
    }
  });
});

describe("configuration of per-capability servers and image providers", () => {
  it("each capability's server falls back to AI_BASE_URL / AI_API_KEY", () => {
    const config = readAiConfig({
      AI_BASE_URL: "http://gpu:8000/v1",
      AI_API_KEY: "shared",
      AI_CHAT_BASE_URL: "http://localhost:11434/v1",
      AI_CHAT_API_KEY: "ollama",
      AI_SPEECH_BASE_URL: "http://localhost:8880/v1",
      AI_CHAT_MODEL: "llama3.2",
      AI_SPEECH_MODEL: "kokoro",
      AI_IMAGE_MODEL: "gpt-image-1",
    });
    expect(config.chat).toMatchObject({ baseUrl: "http://localhost:11434/v1", apiKey: "ollama" });
    expect(config.speech).toMatchObject({ baseUrl: "http://localhost:8880/v1", apiKey: "shared" });
    expect(config.image).toMatchObject({
      provider: "openai",
      server: { baseUrl: "http://gpu:8000/v1", apiKey: "shared", imageModel: "gpt-image-1" },
    });

    // No shared URL: each capability only where its own is set.
    const split = readAiConfig({
      AI_CHAT_BASE_URL: "http://localhost:11434/v1",
      AI_CHAT_MODEL: "llama3.2",
      AI_SPEECH_MODEL: "kokoro",
    });
    expect(split.chat?.baseUrl).toBe("http://localhost:11434/v1");
    expect(split.speech).toBeNull();
    expect(providerSummary(chooseProviders(split)).providers).toMatchObject({
      chat: "openai-compatible",
      speech: "espeak-ng",
      image: "stock-photo",
    });
  });

  it("AI_IMAGE_PROVIDER picks AUTOMATIC1111 or ComfyUI at AI_IMAGE_BASE_URL; they serve sketches too", () => {
    const a1111 = chooseProviders(
      readAiConfig({
        AI_IMAGE_PROVIDER: "automatic1111",
        AI_IMAGE_BASE_URL: "http://localhost:7860",
        AI_IMAGE_SIZE: "768x512",
      }),
    );
    expect(providerSummary(a1111).providers).toMatchObject({ image: "automatic1111", sketch: "automatic1111" });
    // With a model named, the provider's id carries it (for provenance); health still names the server's kind.
    const withModel = chooseProviders(
      readAiConfig({
        AI_IMAGE_PROVIDER: "automatic1111",
        AI_IMAGE_BASE_URL: "http://localhost:7860",
        AI_IMAGE_MODEL: "dreamshaper_8.safetensors",
      }),
    );
    expect(withModel.image?.id).toBe("automatic1111:dreamshaper_8.safetensors");
    expect(providerSummary(withModel).providers).toMatchObject({ image: "automatic1111", sketch: "automatic1111" });
    expect(
      readAiConfig({
        AI_IMAGE_PROVIDER: "automatic1111",
        AI_IMAGE_BASE_URL: "http://localhost:7860",
        AI_IMAGE_SIZE: "768x512",
      }).image,
    ).toEqual({
      provider: "automatic1111",
      server: { baseUrl: "http://localhost:7860", apiKey: null, model: null, width: 768, height: 512 },
    });
    const comfyConfig = readAiConfig({
      AI_IMAGE_PROVIDER: "ComfyUI",
      AI_IMAGE_BASE_URL: "http://localhost:8188/",
      AI_COMFYUI_CHECKPOINT: "flux.safetensors",
    });
    expect(providerSummary(chooseProviders(comfyConfig)).providers).toMatchObject({
      image: "comfyui",
      sketch: "comfyui",
    });
    expect(comfyConfig.image?.provider === "comfyui" && comfyConfig.image.server).toMatchObject({
      baseUrl: "http://localhost:8188",
      textWorkflow: { graph: shippedTextWorkflow },
      sketchWorkflow: { graph: shippedSketchWorkflow },
    });
  });

  it("refuses what cannot work, naming the variable: an unknown provider, no server, a bad size or workflow file", () => {
    expect(() => readAiConfig({ AI_IMAGE_PROVIDER: "midjourney", AI_IMAGE_BASE_URL: "http://x" })).toThrow(
      /AI_IMAGE_PROVIDER must be one of openai, automatic1111, comfyui, got "midjourney"/,
    );
    expect(() => readAiConfig({ AI_IMAGE_PROVIDER: "comfyui" })).toThrow(/AI_IMAGE_BASE_URL must be set/);
    expect(() => readAiConfig({ AI_IMAGE_PROVIDER: "openai", AI_BASE_URL: "http://x/v1" })).toThrow(
      /AI_IMAGE_MODEL must be set/,
    );
    expect(() =>
      readAiConfig({ AI_IMAGE_PROVIDER: "automatic1111", AI_BASE_URL: "http://x", AI_IMAGE_SIZE: "big" }),
    ).toThrow(/AI_IMAGE_SIZE/);
    expect(() => readAiConfig({ AI_CHAT_BASE_URL: "ftp://x" })).toThrow(/AI_CHAT_BASE_URL/);

    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "comfy-workflow-"));
    const base = { AI_IMAGE_PROVIDER: "comfyui", AI_IMAGE_BASE_URL: "http://localhost:8188" };
    expect(() => readAiConfig({ ...base, AI_COMFYUI_WORKFLOW: path.join(folder, "missing.json") })).toThrow(
      /AI_COMFYUI_WORKFLOW must name a readable workflow file/,
    );
    fs.writeFileSync(path.join(folder, "broken.json"), "{ not json");
    expect(() => readAiConfig({ ...base, AI_COMFYUI_WORKFLOW: path.join(folder, "broken.json") })).toThrow(
      /AI_COMFYUI_WORKFLOW must name a JSON workflow/,
    );
    fs.writeFileSync(
      path.join(folder, "no-prompt.json"),
      JSON.stringify({ "1": { class_type: "SaveImage", inputs: {} } }),
    );
    expect(() => readAiConfig({ ...base, AI_COMFYUI_WORKFLOW: path.join(folder, "no-prompt.json") })).toThrow(
      /AI_COMFYUI_WORKFLOW must name a workflow holding \{\{prompt\}\}/,
    );
    expect(() => readAiConfig({ ...base, AI_COMFYUI_SKETCH_WORKFLOW: path.join(folder, "no-prompt.json") })).toThrow(
      /AI_COMFYUI_SKETCH_WORKFLOW must name a workflow holding \{\{image\}\}/,
    );
    const own = { "1": { class_type: "CLIPTextEncode", inputs: { text: "{{prompt}}" } } };
    fs.writeFileSync(path.join(folder, "own.json"), JSON.stringify(own));
    const config = readAiConfig({ ...base, AI_COMFYUI_WORKFLOW: path.join(folder, "own.json") });
    expect(config.image?.provider === "comfyui" && config.image.server.textWorkflow.graph).toEqual(own);
    fs.rmSync(folder, { recursive: true, force: true });
  });
});
