import type { OpenAiCompatibleConfig, RemoteCallConfig } from "~/ai/config.server";
import { studioSystemPrompt, type ChatContext, type ChatProvider, type ChatReply } from "./chat.server";
import { ProviderError, type Capability } from "~/ai/errors.server";
import type { GeneratedImage, ImageProvider } from "~/ai/image/image.server";
import { checkDownloadUrl, downloadPin } from "~/ai/download-pin.server";
import { remoteBytes, remoteEventStream, remoteJson } from "~/ai/remote-http.server";
import { SKETCH_STYLE_PROMPTS, type SketchProvider } from "~/ai/image/sketch.server";
import type { SketchStyle } from "~/common/media/sketch-styles";
import type { SpeechAudio, SpeechProvider, Voice } from "~/ai/speech/speech.server";
import { isRecord } from "~/lib/screens/validation.server";
import { isWav } from "~/lib/storage/file-signatures";
import { storedPng } from "~/ai/image/image-bytes.server";

/**
 * One OpenAI-compatible server (OpenAI, Ollama, llama.cpp, vLLM, LocalAI, ...) serves chat
 * (/chat/completions), speech (/audio/speech) and images (/images/generations, /images/edits),
 * each only when its model is configured.
 */
export const OPENAI_PROVIDER_ID = "openai-compatible";

function headers(config: OpenAiCompatibleConfig, json: boolean): Record<string, string> {
  const result: Record<string, string> = {};
  if (json) result["Content-Type"] = "application/json";
  if (config.apiKey) result.Authorization = `Bearer ${config.apiKey}`;
  return result;
}

export class OpenAiChat implements ChatProvider {
  readonly id: string;
  readonly offline = false;
  readonly searchesPersonalContent = false;
  constructor(
    private readonly config: OpenAiCompatibleConfig & { chatModel: string },
    private readonly call: RemoteCallConfig,
  ) {
    this.id = `${OPENAI_PROVIDER_ID}:${config.chatModel}`;
  }

  /**
   * The chat completion both reply() and stream() ask for: the studio's system prompt (which asks for
   * an answer in the person's language, context.language), then the question.
   */
  private completionRequest(message: string, context?: ChatContext) {
    return {
      model: this.config.chatModel,
      messages: [
        { role: "system", content: studioSystemPrompt(context?.language) },
        { role: "user", content: message },
      ],
    };
  }

  async reply(message: string, context?: ChatContext, signal?: AbortSignal): Promise<ChatReply> {
    const answer = await remoteJson({
      capability: "chat",
      provider: this.id,
      url: `${this.config.baseUrl}/chat/completions`,
      headers: headers(this.config, true),
      body: JSON.stringify(this.completionRequest(message, context)),
      call: this.call,
      signal,
    });
    const choices = isRecord(answer) && Array.isArray(answer.choices) ? answer.choices : [];
    const first = choices[0];
    const content = isRecord(first) && isRecord(first.message) ? first.message.content : undefined;
    if (typeof content !== "string" || content.trim() === "") {
      throw new ProviderError("chat", this.id, "bad_response", "no message content");
    }
    return { reply: content.trim(), provider: this.id };
  }

  /**
   * The same request with `stream: true`: the server answers Server-Sent Events, each a chunk whose
   * `choices[0].delta.content` is the next piece, then `data: [DONE]`. A server that ignores
   * `stream` and answers one JSON completion gives its reply as one piece.
   */
  async *stream(message: string, context?: ChatContext, signal?: AbortSignal): AsyncGenerator<string> {
    const { sse, events } = await remoteEventStream({
      capability: "chat",
      provider: this.id,
      url: `${this.config.baseUrl}/chat/completions`,
      headers: headers(this.config, true),
      body: JSON.stringify({ ...this.completionRequest(message, context), stream: true }),
      call: this.call,
      signal,
    });
    const unusable = (detail: string) => new ProviderError("chat", this.id, "bad_response", detail);
    let started = false;
    for await (const data of events) {
      if (sse && data.trim() === "[DONE]") break;
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        throw unusable("a stream event is not JSON");
      }
      if (isRecord(chunk) && chunk.error !== undefined) throw unusable("the stream reported an error");
      const choice = isRecord(chunk) && Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      const part = isRecord(choice) ? (sse ? choice.delta : choice.message) : undefined;
      let content = isRecord(part) && typeof part.content === "string" ? part.content : "";
      // Like reply(): no leading blank before the first words.
      if (!started) content = content.trimStart();
      if (!content) continue;
      started = true;
      yield content;
    }
    if (!started) throw unusable("no message content");
  }
}

export class OpenAiSpeech implements SpeechProvider {
  readonly id: string;
  readonly offline = false;
  constructor(
    private readonly config: OpenAiCompatibleConfig & { speechModel: string },
    private readonly call: RemoteCallConfig,
    private readonly maxBytes: number,
  ) {
    this.id = `${OPENAI_PROVIDER_ID}:${config.speechModel}`;
  }

  /** The API has no voice list: the configured names (AI_SPEECH_VOICES) are the list. */
  async listVoices(): Promise<Voice[]> {
    return this.config.speechVoices.map((voice) => ({
      voice_id: voice,
      name: voice.charAt(0).toUpperCase() + voice.slice(1),
    }));
  }

  async synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<SpeechAudio> {
    const { bytes } = await remoteBytes(
      {
        capability: "speech",
        provider: this.id,
        url: `${this.config.baseUrl}/audio/speech`,
        headers: headers(this.config, true),
        // WAV like the offline voice: every stored speech file is one kind of file.
        body: JSON.stringify({ model: this.config.speechModel, input: text, voice: voiceId, response_format: "wav" }),
        call: this.call,
        signal,
      },
      this.maxBytes,
    );
    if (!isWav(bytes)) throw new ProviderError("speech", this.id, "bad_response", "the answer is not WAV audio");
    return { bytes, contentType: "audio/wav", extension: "wav" };
  }
}

/** Where api.openai.com's image links (DALL-E 2/3 `url` answers) point. */
const OPENAI_FILE_HOSTS = ["oaidalleapiprodscus.blob.core.windows.net"];
/** The most an image download may bring (a picture, not a video): reading stops past it. */
export const IMAGE_DOWNLOAD_MAX_BYTES = 50 * 1024 * 1024;

/** The image in an /images answer: `b64_json` (gpt-image-1, most servers) or a `url` to fetch. */
async function imageFromAnswer(
  answer: unknown,
  capability: Capability,
  provider: string,
  call: RemoteCallConfig,
  maxBytes: number,
  baseUrl: string,
  signal?: AbortSignal,
): Promise<GeneratedImage> {
  const data = isRecord(answer) && Array.isArray(answer.data) ? answer.data : [];
  const first = data[0];
  let bytes: Buffer | null = null;
  if (isRecord(first) && typeof first.b64_json === "string" && first.b64_json) {
    bytes = Buffer.from(first.b64_json, "base64");
  } else if (isRecord(first) && first.url !== undefined) {
    // Only from the image server's own host or AI_DOWNLOAD_HOSTS (OpenAI's DALL-E links: its blob host).
    const pin = downloadPin(baseUrl, call, new URL(baseUrl).hostname === "api.openai.com" ? OPENAI_FILE_HOSTS : []);
    const url = checkDownloadUrl(first.url, capability, provider, pin);
    bytes = (
      await remoteBytes({ capability, provider, url, call, signal, pin }, Math.min(maxBytes, IMAGE_DOWNLOAD_MAX_BYTES))
    ).bytes;
  }
  // Stored images are PNG, whatever the provider sent.
  return storedPng(bytes, capability, provider, maxBytes);
}

export class OpenAiImages implements ImageProvider, SketchProvider {
  readonly id: string;
  readonly offline = false;
  constructor(
    private readonly config: OpenAiCompatibleConfig & { imageModel: string },
    private readonly call: RemoteCallConfig,
    private readonly maxBytes: number,
  ) {
    this.id = `${OPENAI_PROVIDER_ID}:${config.imageModel}`;
  }

  async generate(prompt: string, signal?: AbortSignal): Promise<GeneratedImage> {
    const answer = await remoteJson({
      capability: "image",
      provider: this.id,
      url: `${this.config.baseUrl}/images/generations`,
      headers: headers(this.config, true),
      body: JSON.stringify({ model: this.config.imageModel, prompt, n: 1, size: this.config.imageSize }),
      call: this.call,
      signal,
    });
    return imageFromAnswer(answer, "image", this.id, this.call, this.maxBytes, this.config.baseUrl, signal);
  }

  /** The sketch goes to /images/edits with a prompt that names the style. */
  async stylise(png: Buffer, style: SketchStyle, signal?: AbortSignal): Promise<GeneratedImage> {
    const form = new FormData();
    form.set("model", this.config.imageModel);
    form.set("prompt", SKETCH_STYLE_PROMPTS[style]);
    form.set("n", "1");
    form.set("size", this.config.imageSize);
    form.set("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "sketch.png");
    const answer = await remoteJson({
      capability: "sketch",
      provider: this.id,
      url: `${this.config.baseUrl}/images/edits`,
      headers: headers(this.config, false),
      body: form,
      call: this.call,
      signal,
    });
    return imageFromAnswer(answer, "sketch", this.id, this.call, this.maxBytes, this.config.baseUrl, signal);
  }
}
