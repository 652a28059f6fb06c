import { env, OPENAI_DEFAULT_VOICES, parseSettings, type Settings } from "~/lib/env.server";

/**
 * Which provider serves each AI capability, from the settings (README "AI providers").
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
}

export interface AiConfig {
  openai: OpenAiCompatibleConfig | null;
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

export { OPENAI_DEFAULT_VOICES };

/** The providers' configuration from parsed settings (app/lib/env.server.ts holds the one schema). */
export function aiConfigFrom(settings: Settings): AiConfig {
  const ai = settings.ai;
  const openai: OpenAiCompatibleConfig | null = ai.baseUrl
    ? {
        baseUrl: ai.baseUrl,
        apiKey: ai.apiKey,
        chatModel: ai.chatModel,
        speechModel: ai.speechModel,
        speechVoices: ai.speechVoices,
        imageModel: ai.imageModel,
        imageSize: ai.imageSize,
      }
    : null;
  const elevenlabs: ElevenLabsConfig | null = ai.elevenlabsApiKey
    ? { baseUrl: ai.elevenlabsBaseUrl, apiKey: ai.elevenlabsApiKey, model: ai.elevenlabsModel }
    : null;
  const replicate: ReplicateConfig | null =
    ai.replicateApiToken && ai.replicateVideoModel
      ? { baseUrl: ai.replicateBaseUrl, apiToken: ai.replicateApiToken, model: ai.replicateVideoModel }
      : null;
  return {
    openai,
    elevenlabs,
    replicate,
    remote: { timeoutMs: ai.timeoutMs, totalTimeoutMs: ai.totalTimeoutMs, maxRetries: ai.maxRetries, retryBaseMs: 500 },
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
