import { describe, expect, it } from "vitest";
import { readAiConfig } from "~/ai/config.server";
import { chooseProviders, providerKind, providerSummary } from "~/ai/providers.server";

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

  it("an OpenAI-compatible base URL serves only the capabilities whose model is set; health names kinds, not models", () => {
    const chatOnly = chooseProviders(
      readAiConfig({ AI_BASE_URL: "http://localhost:11434/v1", AI_CHAT_MODEL: "llama3.2" }),
    );
    expect(chatOnly.chat.id).toBe("openai-compatible:llama3.2");
    expect(providerSummary(chatOnly).providers).toEqual({
      chat: "openai-compatible",
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
        chat: "openai-compatible",
        speech: "openai-compatible",
        image: "openai-compatible",
        sketch: "openai-compatible",
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
    expect(providers.video.id).toBe("replicate:minimax/video-01");
    expect(summary.providers.video).toBe("replicate");
    expect(summary.test_mode).toBe(false);
    // Replicate needs both the token and the model.
    expect(providerSummary(chooseProviders(readAiConfig({ REPLICATE_API_TOKEN: "r8" }))).test_mode).toBe(true);
  });

  it("a provider's kind is its id up to the first colon: a model name with colons of its own (Ollama's tags) stays out", () => {
    expect(providerKind("openai-compatible:acme-internal-chat-v7")).toBe("openai-compatible");
    expect(providerKind("openai-compatible:llama3.2:3b")).toBe("openai-compatible");
    expect(providerKind("replicate:owner/model")).toBe("replicate");
    expect(providerKind("espeak-ng")).toBe("espeak-ng");
  });
});
