import { describe, expect, it } from "vitest";
import { readAiConfig } from "~/ai/config.server";
import { chooseProviders, providerSummary } from "~/ai/providers.server";

describe("provider choice", () => {
  it("runs every capability offline by default (test mode)", () => {
    const providers = chooseProviders(readAiConfig({}));
    expect(providerSummary(providers)).toEqual({
      test_mode: true,
      providers: {
        chat: "offline-assistant",
        speech: "espeak-ng",
        image: "stock-photo",
        sketch: "local-stylise",
        video: "local-renderer",
      },
    });
    expect(providers.chat.offline).toBe(true);
    expect(providers.image).toBeNull();
  });

  it("an OpenAI-compatible base URL serves only the capabilities whose model is set", () => {
    const chatOnly = chooseProviders(
      readAiConfig({ AI_BASE_URL: "http://localhost:11434/v1", AI_CHAT_MODEL: "llama3.2" }),
    );
    expect(providerSummary(chatOnly).providers).toEqual({
      chat: "openai-compatible:llama3.2",
      speech: "espeak-ng",
      image: "stock-photo",
      sketch: "local-stylise",
      video: "local-renderer",
    });
    const all = chooseProviders(
      readAiConfig({
        AI_BASE_URL: "https://api.openai.com/v1",
        AI_API_KEY: "k",
        AI_CHAT_MODEL: "gpt-4o-mini",
        AI_SPEECH_MODEL: "tts-1",
        AI_IMAGE_MODEL: "gpt-image-1",
      }),
    );
    expect(providerSummary(all)).toEqual({
      test_mode: true,
      providers: {
        chat: "openai-compatible:gpt-4o-mini",
        speech: "openai-compatible:tts-1",
        image: "openai-compatible:gpt-image-1",
        sketch: "openai-compatible:gpt-image-1",
        video: "local-renderer",
      },
    });
    // A model without a base URL does nothing.
    expect(providerSummary(chooseProviders(readAiConfig({ AI_CHAT_MODEL: "x" }))).providers.chat).toBe(
      "offline-assistant",
    );
  });

  it("ElevenLabs wins for speech where its key is set; Replicate serves video and ends test mode", () => {
    const providers = chooseProviders(
      readAiConfig({
        AI_BASE_URL: "https://api.openai.com/v1",
        AI_SPEECH_MODEL: "tts-1",
        ELEVENLABS_API_KEY: "el",
        REPLICATE_API_TOKEN: "r8",
        REPLICATE_VIDEO_MODEL: "minimax/video-01",
      }),
    );
    const summary = providerSummary(providers);
    expect(summary.providers.speech).toBe("elevenlabs");
    expect(summary.providers.video).toBe("replicate:minimax/video-01");
    expect(summary.test_mode).toBe(false);
    // Replicate needs both the token and the model.
    expect(providerSummary(chooseProviders(readAiConfig({ REPLICATE_API_TOKEN: "r8" }))).test_mode).toBe(true);
  });
});
