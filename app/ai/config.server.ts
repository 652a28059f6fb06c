/**
 * Which provider serves each AI capability, from environment variables (README "AI providers").
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

/** OpenAI's built-in voices: the default list when the base URL serves /audio/speech. */
export const OPENAI_DEFAULT_VOICES = ["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer"];

type Env = Record<string, string | undefined>;

const text = (env: Env, name: string): string | null => {
  const value = env[name]?.trim();
  return value ? value : null;
};

function positiveNumber(env: Env, name: string, fallback: number, { allowZero = false } = {}): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new Error(`${name} must be a positive number, got "${raw}"`);
  }
  return value;
}

function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1, got "${raw}"`);
  return value;
}

function httpUrl(env: Env, name: string, fallback: string | null): string | null {
  const raw = text(env, name) ?? fallback;
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, "");
}

export function readAiConfig(env: Env = process.env): AiConfig {
  const baseUrl = httpUrl(env, "AI_BASE_URL", null);
  const openai: OpenAiCompatibleConfig | null = baseUrl
    ? {
        baseUrl,
        apiKey: text(env, "AI_API_KEY"),
        chatModel: text(env, "AI_CHAT_MODEL"),
        speechModel: text(env, "AI_SPEECH_MODEL"),
        speechVoices: (text(env, "AI_SPEECH_VOICES")?.split(",") ?? OPENAI_DEFAULT_VOICES).map((v) => v.trim()).filter(Boolean),
        imageModel: text(env, "AI_IMAGE_MODEL"),
        imageSize: text(env, "AI_IMAGE_SIZE") ?? "1024x1024",
      }
    : null;

  const elevenKey = text(env, "ELEVENLABS_API_KEY");
  const elevenlabs: ElevenLabsConfig | null = elevenKey
    ? {
        baseUrl: httpUrl(env, "ELEVENLABS_BASE_URL", "https://api.elevenlabs.io")!,
        apiKey: elevenKey,
        model: text(env, "ELEVENLABS_MODEL") ?? "eleven_multilingual_v2",
      }
    : null;

  const replicateToken = text(env, "REPLICATE_API_TOKEN");
  const replicateModel = text(env, "REPLICATE_VIDEO_MODEL");
  if (replicateToken && replicateModel && !/^[\w.-]+\/[\w.-]+$/.test(replicateModel)) {
    throw new Error(`REPLICATE_VIDEO_MODEL must look like "owner/name", got "${replicateModel}"`);
  }
  const replicate: ReplicateConfig | null =
    replicateToken && replicateModel
      ? { baseUrl: httpUrl(env, "REPLICATE_BASE_URL", "https://api.replicate.com/v1")!, apiToken: replicateToken, model: replicateModel }
      : null;

  return {
    openai,
    elevenlabs,
    replicate,
    remote: {
      timeoutMs: positiveNumber(env, "AI_TIMEOUT_SECONDS", 60) * 1000,
      totalTimeoutMs: positiveNumber(env, "AI_TOTAL_TIMEOUT_SECONDS", 120) * 1000,
      maxRetries: Math.floor(positiveNumber(env, "AI_MAX_RETRIES", 2, { allowZero: true })),
      retryBaseMs: 500,
    },
    videoJobTimeoutMs: positiveNumber(env, "VIDEO_JOB_TIMEOUT_SECONDS", 600) * 1000,
    videoMaxActiveJobs: positiveInteger(env, "VIDEO_MAX_ACTIVE_JOBS", 3),
    maxGeneratedBytes: 200 * 1024 * 1024,
  };
}

let cached: AiConfig | undefined;
/** The process's configuration, read once (providers.server.ts reads it on import, so a bad value stops the server at start). */
export function aiConfig(): AiConfig {
  return (cached ??= readAiConfig());
}
