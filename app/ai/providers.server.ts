import { aiConfig, type AiConfig } from "./config.server";
import type { ChatProvider } from "./chat.server";
import { ElevenLabsSpeech } from "./elevenlabs-speech.server";
import { EspeakSpeech } from "./espeak-speech.server";
import type { ImageProvider } from "./image.server";
import { LocalSketchStylist } from "./local-sketch.server";
import { LocalVideoRenderer } from "./local-video.server";
import { OfflineAssistant } from "./offline-assistant.server";
import { OpenAiChat, OpenAiImages, OpenAiSpeech } from "./openai-compatible.server";
import { ReplicateVideo } from "./replicate-video.server";
import type { SketchProvider } from "./sketch.server";
import type { SpeechProvider } from "./speech.server";
import type { VideoProvider } from "./video.server";

/**
 * Which provider serves each capability. Remote providers win where configured; otherwise the
 * offline provider serves (image generation has none: SPEC's stock-photo link stands in, see
 * docs/decisions). Chosen once per process from the environment.
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
  const { openai, elevenlabs, replicate, remote, maxGeneratedBytes } = config;
  const images = openai?.imageModel ? new OpenAiImages({ ...openai, imageModel: openai.imageModel }, remote, maxGeneratedBytes) : null;
  let speech: SpeechProvider;
  if (elevenlabs) speech = new ElevenLabsSpeech(elevenlabs, remote, maxGeneratedBytes);
  else if (openai?.speechModel) speech = new OpenAiSpeech({ ...openai, speechModel: openai.speechModel }, remote, maxGeneratedBytes);
  else speech = new EspeakSpeech();
  return {
    chat: openai?.chatModel ? new OpenAiChat({ ...openai, chatModel: openai.chatModel }, remote) : new OfflineAssistant(),
    speech,
    image: images,
    sketch: images ?? new LocalSketchStylist(),
    video: replicate ? new ReplicateVideo(replicate, remote, maxGeneratedBytes) : new LocalVideoRenderer(options.paceLocalVideo ?? true),
  };
}

// Read on import: the server bundle imports this at start, so a bad AI_* value stops it at once.
const processProviders = chooseProviders(aiConfig());

export function aiProviders(): AiProviders {
  return processProviders;
}

/** What GET /api/health reports: test_mode while video runs locally, and each capability's provider. */
export function providerSummary(providers: AiProviders = processProviders) {
  return {
    test_mode: providers.video.offline,
    providers: {
      chat: providers.chat.id,
      speech: providers.speech.id,
      image: providers.image?.id ?? "none",
      sketch: providers.sketch.id,
      video: providers.video.id,
    },
  };
}
