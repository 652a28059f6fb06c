import { Automatic1111Images } from "./image/automatic1111-image.server";
import { ComfyUiImages } from "./image/comfyui-image.server";
import { aiConfig, type AiConfig } from "./config.server";
import type { ChatProvider } from "./chat/chat.server";
import { ElevenLabsSpeech } from "./speech/elevenlabs-speech.server";
import { EspeakSpeech } from "./speech/espeak-speech.server";
import type { ImageProvider } from "./image/image.server";
import { LocalSketchStylist } from "./image/local-sketch.server";
import { LocalVideoRenderer } from "./video/local-video.server";
import { OfflineAssistant } from "./chat/offline-assistant.server";
import { OpenAiChat, OpenAiImages, OpenAiSpeech } from "./chat/openai-compatible.server";
import { ReplicateVideo } from "./video/replicate-video.server";
import type { SketchProvider } from "./image/sketch.server";
import type { SpeechProvider } from "./speech/speech.server";
import type { VideoProvider } from "./video/video.server";

/**
 * Which provider serves each capability. Remote providers win where configured; otherwise the
 * offline provider serves (image generation has none: the stock-photo link in docs/screens.md stands in, see
 * docs/decisions). Chat, speech and images may each have their own server (AI_<CAPABILITY>_BASE_URL);
 * images come from an OpenAI-compatible server, AUTOMATIC1111 or ComfyUI (AI_IMAGE_PROVIDER).
 * Chosen once per process from the environment.
 */
export interface AiProviders {
  chat: ChatProvider;
  speech: SpeechProvider;
  /** null: no image model configured. */
  image: ImageProvider | null;
  sketch: SketchProvider;
  video: VideoProvider;
}

export function chooseProviders(config: AiConfig, options: { paceLocalVideo?: boolean } = {}): AiProviders {
  const { chat, elevenlabs, replicate, remote, maxGeneratedBytes } = config;
  const images = imageProvider(config);
  let speech: SpeechProvider;
  if (elevenlabs) speech = new ElevenLabsSpeech(elevenlabs, remote, maxGeneratedBytes);
  else if (config.speech?.speechModel)
    speech = new OpenAiSpeech({ ...config.speech, speechModel: config.speech.speechModel }, remote, maxGeneratedBytes);
  else speech = new EspeakSpeech();
  return {
    chat: chat?.chatModel ? new OpenAiChat({ ...chat, chatModel: chat.chatModel }, remote) : new OfflineAssistant(),
    speech,
    image: images,
    sketch: images ?? new LocalSketchStylist(),
    video: replicate
      ? new ReplicateVideo(replicate, remote, maxGeneratedBytes)
      : new LocalVideoRenderer(options.paceLocalVideo ?? true),
  };
}

/** The image server AI_IMAGE_PROVIDER names (it serves sketches too); null: none configured. */
function imageProvider({ image, remote, maxGeneratedBytes }: AiConfig): (ImageProvider & SketchProvider) | null {
  if (!image) return null;
  if (image.provider === "automatic1111") return new Automatic1111Images(image.server, remote, maxGeneratedBytes);
  if (image.provider === "comfyui") return new ComfyUiImages(image.server, remote, maxGeneratedBytes);
  return new OpenAiImages(image.server, remote, maxGeneratedBytes);
}

/** What answers prompts when no image model is configured: the stock-photo link in docs/screens.md (nothing is generated). */
export const STOCK_PHOTO_PROVIDER_ID = "stock-photo";

// Read on import: the server bundle imports this at start, so a bad AI_* value stops it at once.
const processProviders = chooseProviders(aiConfig());

export function aiProviders(): AiProviders {
  return processProviders;
}

/**
 * The kind of provider an id names: the part before its first ":" ("openai-compatible:acme-chat-v7" →
 * "openai-compatible", "comfyui:flux.safetensors" → "comfyui", "replicate:owner/model" → "replicate";
 * "espeak-ng" is its own). GET /api/health answers anyone, so it names kinds (decision 0020), never the
 * model, checkpoint or Replicate model an operator configured; the ids keep them for provenance (the
 * library's provider and model, the assistant's answer to its signed-in person).
 */
export function providerKind(id: string): string {
  return id.split(":")[0];
}

/** What GET /api/health reports: test_mode while video runs locally, and each capability's provider kind. */
export function providerSummary(providers: AiProviders = processProviders) {
  return {
    test_mode: providers.video.offline,
    providers: {
      chat: providerKind(providers.chat.id),
      speech: providerKind(providers.speech.id),
      image: providerKind(providers.image?.id ?? STOCK_PHOTO_PROVIDER_ID),
      sketch: providerKind(providers.sketch.id),
      video: providerKind(providers.video.id),
    },
  };
}
