import fs from "node:fs";
import path from "node:path";
import { env, parseSettings, SettingsError, type Settings } from "~/lib/settings/env.server";
// Bundled into the server build, so the built server always has them (no path to find at run time).
import shippedSketchWorkflow from "./image/workflows/comfyui-sketch-to-image.json";
import shippedTextWorkflow from "./image/workflows/comfyui-text-to-image.json";

/**
 * Which provider serves each AI capability, from the settings (docs/ai-providers.md). The variables,
 * their defaults and their checks are the one settings schema's (app/lib/settings/ai-variables.ts, parsed
 * by app/lib/settings/env.server.ts); this module declares none: it only wires the parsed values to providers.
 * Nothing set means every capability runs on its offline provider. The config is a plain object so
 * tests can build providers against a local stub server without touching process.env.
 */
export interface OpenAiCompatibleConfig {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:8080/v1 (llama.cpp). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; local servers often need none. */
  apiKey: string | null;
  chatModel: string | null;
  speechModel: string | null;
  speechVoices: string[];
  imageModel: string | null;
  imageSize: string;
}

export interface ElevenLabsConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
}

export interface ReplicateConfig {
  baseUrl: string;
  apiToken: string;
  /** "owner/name" of a text-to-video model whose input takes `prompt`. */
  model: string;
}

export interface RemoteCallConfig {
  /** Per attempt. */
  timeoutMs: number;
  /** The whole call: every attempt, the pauses between them and reading the answer (a hung provider ends here). */
  totalTimeoutMs: number;
  /** Extra attempts after a 429, a 5xx or a network failure. */
  maxRetries: number;
  /** The first pause between attempts; it doubles each time (a Retry-After header wins, up to 10 s). */
  retryBaseMs: number;
  /** AI_DOWNLOAD_HOSTS: hosts a provider's download links may name besides its base URL's (app/ai/download-pin.server.ts). */
  downloadHosts?: readonly string[];
}

/** AUTOMATIC1111 / Forge (`--api`): AI_IMAGE_BASE_URL is the server's root. */
export interface Automatic1111Config {
  baseUrl: string;
  /** `user:password` of `--api-auth` goes as Basic, anything else as Bearer (a proxy in front). */
  apiKey: string | null;
  /** AI_IMAGE_MODEL, sent as override_settings.sd_model_checkpoint; null: the checkpoint the server has loaded. */
  model: string | null;
  width: number;
  height: number;
}

/** A ComfyUI workflow in API format, with where it came from (for the log and errors). */
export interface ComfyUiWorkflow {
  source: string;
  graph: Record<string, unknown>;
}

/** ComfyUI: AI_IMAGE_BASE_URL is the server's root. */
export interface ComfyUiConfig {
  baseUrl: string;
  apiKey: string | null;
  checkpoint: string;
  /** For prompts: must hold {{prompt}}. */
  textWorkflow: ComfyUiWorkflow;
  /** For sketches: must hold {{image}} (the uploaded sketch). */
  sketchWorkflow: ComfyUiWorkflow;
  width: number;
  height: number;
  /** Pause between two GET /history polls. */
  pollIntervalMs: number;
}

export type ImageConfig =
  | { provider: "openai"; server: OpenAiCompatibleConfig & { imageModel: string } }
  | { provider: "automatic1111"; server: Automatic1111Config }
  | { provider: "comfyui"; server: ComfyUiConfig };

export interface AiConfig {
  /** The OpenAI-compatible server of each capability (AI_<CAPABILITY>_BASE_URL, else AI_BASE_URL); null: none. */
  chat: OpenAiCompatibleConfig | null;
  speech: OpenAiCompatibleConfig | null;
  /** The image server (images and sketches); null: no image model (stock-photo link, sketches restyled offline). */
  image: ImageConfig | null;
  elevenlabs: ElevenLabsConfig | null;
  replicate: ReplicateConfig | null;
  remote: RemoteCallConfig;
  /** How long a remote video job may run before it ends as "timeout". */
  videoJobTimeoutMs: number;
  /** Unfinished video jobs one person may have at once; another is refused (429). */
  videoMaxActiveJobs: number;
  /** Largest generated file (image, video, speech) we accept from a provider. */
  maxGeneratedBytes: number;
}

/** "512x512" -> {width, height} (the schema checked the shape for the diffusion servers). */
function sizeOf(size: string): { width: number; height: number } {
  const [width, height] = size.split("x").map(Number);
  return { width, height };
}

function openAiServer(
  ai: Settings["ai"],
  baseUrl: string | null,
  apiKey: string | null,
): OpenAiCompatibleConfig | null {
  if (!baseUrl) return null;
  return {
    baseUrl,
    apiKey,
    chatModel: ai.chatModel,
    speechModel: ai.speechModel,
    speechVoices: ai.speechVoices,
    imageModel: ai.imageModel,
    imageSize: ai.imageSize,
  };
}

/** A workflow file (API format) read once at start; a missing or bad file stops the server naming the variable. */
export function readComfyUiWorkflow(
  variable: string,
  file: string | null,
  shipped: unknown,
  placeholder: string,
): ComfyUiWorkflow {
  let graph: unknown = shipped;
  const source = file ?? `the shipped workflow (app/ai/workflows)`;
  if (file) {
    let text: string;
    try {
      text = fs.readFileSync(path.resolve(file), "utf8");
    } catch (error) {
      throw new SettingsError([
        `${variable} must name a readable workflow file, got "${file}" (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`,
      ]);
    }
    try {
      graph = JSON.parse(text);
    } catch {
      throw new SettingsError([`${variable} must name a JSON workflow file (ComfyUI's "Export (API)"), got "${file}"`]);
    }
  }
  if (
    !graph ||
    typeof graph !== "object" ||
    Array.isArray(graph) ||
    !Object.values(graph).every((node) => node && typeof node === "object" && "class_type" in node)
  ) {
    throw new SettingsError([
      `${variable} must name a workflow in ComfyUI's API format (nodes with class_type), got "${file}"`,
    ]);
  }
  if (!JSON.stringify(graph).includes(placeholder)) {
    throw new SettingsError([`${variable} must name a workflow holding ${placeholder}, got "${file}"`]);
  }
  return { source, graph: graph as Record<string, unknown> };
}

function imageConfig(ai: Settings["ai"]): ImageConfig | null {
  const baseUrl = ai.imageBaseUrl;
  if (!ai.imageProvider || !baseUrl) return null;
  if (ai.imageProvider === "openai") {
    const server = openAiServer(ai, baseUrl, ai.imageApiKey);
    return server && ai.imageModel ? { provider: "openai", server: { ...server, imageModel: ai.imageModel } } : null;
  }
  const size = sizeOf(ai.imageSize);
  if (ai.imageProvider === "automatic1111") {
    return { provider: "automatic1111", server: { baseUrl, apiKey: ai.imageApiKey, model: ai.imageModel, ...size } };
  }
  return {
    provider: "comfyui",
    server: {
      baseUrl,
      apiKey: ai.imageApiKey,
      checkpoint: ai.comfyuiCheckpoint,
      textWorkflow: readComfyUiWorkflow("AI_COMFYUI_WORKFLOW", ai.comfyuiWorkflow, shippedTextWorkflow, "{{prompt}}"),
      sketchWorkflow: readComfyUiWorkflow(
        "AI_COMFYUI_SKETCH_WORKFLOW",
        ai.comfyuiSketchWorkflow,
        shippedSketchWorkflow,
        "{{image}}",
      ),
      ...size,
      pollIntervalMs: 1000,
    },
  };
}

/** The providers' configuration from parsed settings (the one schema: app/lib/settings/env.server.ts). */
export function aiConfigFrom(settings: Settings): AiConfig {
  const ai = settings.ai;
  const elevenlabs: ElevenLabsConfig | null = ai.elevenlabsApiKey
    ? { baseUrl: ai.elevenlabsBaseUrl, apiKey: ai.elevenlabsApiKey, model: ai.elevenlabsModel }
    : null;
  const replicate: ReplicateConfig | null =
    ai.replicateApiToken && ai.replicateVideoModel
      ? { baseUrl: ai.replicateBaseUrl, apiToken: ai.replicateApiToken, model: ai.replicateVideoModel }
      : null;
  return {
    chat: openAiServer(ai, ai.chatBaseUrl, ai.chatApiKey),
    speech: openAiServer(ai, ai.speechBaseUrl, ai.speechApiKey),
    image: imageConfig(ai),
    elevenlabs,
    replicate,
    remote: {
      timeoutMs: ai.timeoutMs,
      totalTimeoutMs: ai.totalTimeoutMs,
      maxRetries: ai.maxRetries,
      retryBaseMs: 500,
      downloadHosts: ai.downloadHosts,
    },
    videoJobTimeoutMs: ai.videoJobTimeoutMs,
    videoMaxActiveJobs: ai.videoMaxActiveJobs,
    maxGeneratedBytes: 200 * 1024 * 1024,
  };
}

/** The configuration an environment record describes (tests pass their own; a bad value throws naming the variable). */
export function readAiConfig(source: Record<string, string | undefined> = process.env): AiConfig {
  return aiConfigFrom(parseSettings(source));
}

let cached: AiConfig | undefined;
/** The process's configuration, from the settings parsed once at start. */
export function aiConfig(): AiConfig {
  return (cached ??= aiConfigFrom(env));
}
