import { isRecord } from "~/lib/screens/validation.server";
import type { ElevenLabsConfig, RemoteCallConfig } from "~/ai/config.server";
import { ProviderError } from "~/ai/errors.server";
import { remoteBytes, remoteJson } from "~/ai/remote-http.server";
import type { SpeechAudio, SpeechProvider, Voice } from "./speech.server";
import { encodeWav } from "./wav";

/**
 * ElevenLabs voices (where ELEVENLABS_API_KEY is set): GET /v1/voices for the list, and
 * POST /v1/text-to-speech/{voice_id} for the audio (16-bit PCM at 22,050 Hz, stored as WAV).
 */
export const ELEVENLABS_PROVIDER_ID = "elevenlabs";
const VOICE_LIST_TTL_MS = 10 * 60_000;
const PCM_RATE = 22050;

export class ElevenLabsSpeech implements SpeechProvider {
  readonly id = ELEVENLABS_PROVIDER_ID;
  readonly offline = false;
  private voices: { list: Voice[]; at: number } | null = null;

  constructor(
    private readonly config: ElevenLabsConfig,
    private readonly call: RemoteCallConfig,
    private readonly maxBytes: number,
  ) {}

  async listVoices(signal?: AbortSignal): Promise<Voice[]> {
    if (this.voices && Date.now() - this.voices.at < VOICE_LIST_TTL_MS) return this.voices.list;
    const answer = await remoteJson({
      capability: "speech",
      provider: this.id,
      url: `${this.config.baseUrl}/v1/voices`,
      headers: { "xi-api-key": this.config.apiKey },
      call: this.call,
      signal,
    });
    if (!isRecord(answer) || !Array.isArray(answer.voices))
      throw new ProviderError("speech", this.id, "bad_response", "no voice list");
    const list = answer.voices
      .filter(
        (voice): voice is { voice_id: string; name: string } =>
          isRecord(voice) && typeof voice.voice_id === "string" && typeof voice.name === "string",
      )
      .map((voice) => ({ voice_id: voice.voice_id, name: voice.name }));
    this.voices = { list, at: Date.now() };
    return list;
  }

  async synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<SpeechAudio> {
    const { bytes } = await remoteBytes(
      {
        capability: "speech",
        provider: this.id,
        // Raw 16-bit PCM, which we wrap as WAV like the offline voice: every stored speech file is one kind of file.
        url: `${this.config.baseUrl}/v1/text-to-speech/${encodeURIComponent(voiceId)}?output_format=pcm_${PCM_RATE}`,
        headers: { "xi-api-key": this.config.apiKey, "Content-Type": "application/json" },
        body: JSON.stringify({ text, model_id: this.config.model }),
        call: this.call,
        signal,
      },
      this.maxBytes,
    );
    const samples = new Int16Array(Math.floor(bytes.length / 2));
    for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
    return { bytes: encodeWav(samples, PCM_RATE), contentType: "audio/wav", extension: "wav" };
  }
}
