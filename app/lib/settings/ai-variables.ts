import {
  httpUrl,
  list,
  named,
  nonNegativeNumber,
  oneOf,
  positiveNumber,
  positiveWhole,
  setting,
  text,
  wholeAtLeastZero,
} from "./define";

/**
 * The AI providers' variables and the per-person AI limits (docs/ai-providers.md explains the providers).
 * Nothing set: every capability runs on its offline provider. app/ai/config.server.ts shapes the parsed
 * values for the providers; it reads no variable itself.
 */

/** OpenAI's built-in voices: the default list when the base URL serves /audio/speech. */
export const OPENAI_DEFAULT_VOICES = [
  "alloy",
  "ash",
  "ballad",
  "coral",
  "echo",
  "fable",
  "nova",
  "onyx",
  "sage",
  "shimmer",
];

/** Which kind of server AI_IMAGE_PROVIDER names. */
export const IMAGE_PROVIDER_KINDS = ["openai", "automatic1111", "comfyui"] as const;
export type ImageProviderKind = (typeof IMAGE_PROVIDER_KINDS)[number];

const HOST_PATTERN =
  /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/;

export const aiProviderVariables = {
  AI_BASE_URL: httpUrl({
    default: null,
    example: "https://api.openai.com/v1",
    description:
      "an OpenAI-compatible API (`https://api.openai.com/v1`, Ollama `http://localhost:11434/v1`, llama.cpp `http://localhost:8080/v1`, vLLM `http://localhost:8000/v1`): serves each capability below whose model is set",
  }),
  AI_API_KEY: text({
    description: "sent as `Authorization: Bearer` to `AI_BASE_URL` (local servers usually need none)",
  }),
  AI_CHAT_MODEL: text({
    example: "gpt-4o-mini",
    description: "the assistant's model (`/chat/completions`); unset: the offline assistant",
  }),
  AI_SPEECH_MODEL: text({
    example: "gpt-4o-mini-tts",
    description: "text-to-speech model (`/audio/speech`, WAV); unset: offline eSpeak-NG voices",
  }),
  AI_SPEECH_VOICES: list({
    default: null,
    shown: "OpenAI's ten voices",
    example: OPENAI_DEFAULT_VOICES.join(","),
    description: "the voice names the speech model offers, comma separated",
  }),
  AI_IMAGE_MODEL: text({
    example: "gpt-image-1",
    description:
      "image model (`/images/generations`; sketches go to `/images/edits`); unset: the image generator builds a stock-photo link and sketches are restyled offline",
  }),
  AI_IMAGE_SIZE: named("a size", {
    default: "1024x1024",
    description:
      "the `size` asked of the image model; for AUTOMATIC1111 and ComfyUI the largest picture as `WIDTHxHEIGHT` (sketches keep their proportions within it): `512x512` suits SD 1.5 checkpoints",
  }),
  AI_CHAT_BASE_URL: httpUrl({
    default: null,
    shown: "`AI_BASE_URL`",
    example: "http://localhost:11434/v1",
    description: "the assistant's own OpenAI-compatible server (e.g. Ollama)",
  }),
  AI_CHAT_API_KEY: text({ shown: "`AI_API_KEY`", description: "the key for `AI_CHAT_BASE_URL`" }),
  AI_SPEECH_BASE_URL: httpUrl({
    default: null,
    shown: "`AI_BASE_URL`",
    example: "http://localhost:8880/v1",
    description: "speech's own OpenAI-compatible server (e.g. Kokoro-FastAPI)",
  }),
  AI_SPEECH_API_KEY: text({ shown: "`AI_API_KEY`", description: "the key for `AI_SPEECH_BASE_URL`" }),
  AI_IMAGE_BASE_URL: httpUrl({
    default: null,
    shown: "`AI_BASE_URL`",
    example: "http://localhost:8188",
    description:
      "the image server: an OpenAI-compatible API, or the root of AUTOMATIC1111 (`http://localhost:7860`) or ComfyUI (`http://localhost:8188`)",
  }),
  AI_IMAGE_API_KEY: text({
    shown: "`AI_API_KEY`",
    description:
      "the key for `AI_IMAGE_BASE_URL`; for AUTOMATIC1111 and ComfyUI a key `user:password` is sent as Basic (AUTOMATIC1111's `--api-auth`), any other as Bearer",
  }),
  AI_IMAGE_PROVIDER: oneOf(IMAGE_PROVIDER_KINDS, {
    default: null as ImageProviderKind | null,
    shown: "`openai` when `AI_IMAGE_MODEL` is set, else none",
    example: "comfyui",
    description: "`openai`, `automatic1111` or `comfyui`; another value stops the server at start",
  }),
  AI_COMFYUI_WORKFLOW: text({
    shown: "the shipped `app/ai/image/workflows/comfyui-text-to-image.json`",
    description:
      'a ComfyUI workflow file in API format (ComfyUI\'s "Export (API)") for prompts; must hold `{{prompt}}`',
  }),
  AI_COMFYUI_SKETCH_WORKFLOW: text({
    shown: "the shipped `app/ai/image/workflows/comfyui-sketch-to-image.json`",
    description: "the workflow for sketches; must hold `{{image}}` (the uploaded sketch)",
  }),
  AI_COMFYUI_CHECKPOINT: named("a checkpoint file name", {
    default: "v1-5-pruned-emaonly.safetensors",
    description: "the checkpoint file the workflows load (`{{checkpoint}}`)",
  }),
  ELEVENLABS_API_KEY: text({ description: "ElevenLabs voices for speech (wins over `AI_SPEECH_MODEL`)" }),
  ELEVENLABS_MODEL: named("a model name", { default: "eleven_multilingual_v2", description: "the ElevenLabs model" }),
  ELEVENLABS_BASE_URL: httpUrl({ default: "https://api.elevenlabs.io", description: "the ElevenLabs API" }),
  REPLICATE_API_TOKEN: text({ description: "with `REPLICATE_VIDEO_MODEL`: AI video on Replicate (ends Test Mode)" }),
  REPLICATE_VIDEO_MODEL: text({
    example: "owner/text-to-video-model",
    description: "`owner/name` of a text-to-video model whose input takes `prompt`",
  }),
  REPLICATE_BASE_URL: httpUrl({ default: "https://api.replicate.com/v1", description: "the Replicate API" }),
  AI_DOWNLOAD_HOSTS: setting<string[]>(
    "a comma-separated list of host names (host, host:port or *.domain)",
    (raw) => {
      const hosts = raw
        .split(",")
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean);
      return hosts.every((host) => HOST_PATTERN.test(host)) ? hosts : undefined;
    },
    {
      default: [],
      shown: "none",
      example: "cdn.example.com,*.files.example.com",
      description:
        "hosts, comma separated (`cdn.example.com`, `files.example.com:8443`, `*.example.com`), a provider's download links may point to besides the host of that provider's own base URL; api.replicate.com's `replicate.delivery` and api.openai.com's image host are known without it. Redirects are followed by hand (at most 3, each checked), plain http only when the base URL itself is http, at most 50 MiB for an image and 200 MiB for a video",
    },
  ),
  AI_TIMEOUT_SECONDS: positiveNumber({ default: 60, description: "timeout of each attempt of a remote AI call" }),
  AI_MAX_RETRIES: nonNegativeNumber({
    default: 2,
    description: "retries of a remote call after a 429, a 5xx or a network failure",
  }),
  AI_TOTAL_TIMEOUT_SECONDS: positiveNumber({
    default: 120,
    description: "the most one remote AI call may take, retries and waits included",
  }),
  VIDEO_MAX_ACTIVE_JOBS: positiveWhole({
    default: 3,
    description: "unfinished AI video jobs a person may have at once; one more is refused with 429",
  }),
  VIDEO_JOB_TIMEOUT_SECONDS: positiveNumber({
    default: 600,
    description: "a video job running longer ends as `timeout`",
  }),
} as const;

export const aiLimitVariables = {
  AI_REQUESTS_PER_MINUTE: positiveWhole({
    default: 20,
    description:
      "AI requests one person may start in any 60 seconds, all AI calls together and on every instance (kept in the database); one more is refused with 429, `Retry-After` in seconds and a `detail` that says when to try again",
  }),
  AI_CONCURRENT_PER_PERSON: positiveWhole({
    default: 2,
    description:
      "AI requests one person may have running at once (an assistant stream holds its slot until it ends); one more is refused with 429 and `Retry-After`. A slot held by an instance that was killed frees itself within a minute",
  }),
  AI_DAILY_LIMIT: wholeAtLeastZero({
    default: 0,
    shown: "`0` (none)",
    description:
      "AI requests one person may start per day (UTC), counted like `AI_REQUESTS_PER_MINUTE`; one more is refused with 429 and `Retry-After` (seconds to midnight UTC). `npm run admin -- ai-limit` gives a person a cap of their own",
  }),
} as const;
