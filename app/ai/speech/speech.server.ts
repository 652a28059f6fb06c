/** The speech capability: a list of voices and text-to-speech into an audio file. */
export interface Voice {
  voice_id: string;
  name: string;
}

export interface SpeechAudio {
  bytes: Buffer;
  /** e.g. audio/wav (offline) or audio/mpeg (remote). */
  contentType: string;
  /** File extension for the stored file's display name, without the dot. */
  extension: string;
}

export interface SpeechProvider {
  readonly id: string;
  readonly offline: boolean;
  listVoices(signal?: AbortSignal): Promise<Voice[]>;
  /** `voiceId` has been checked against listVoices() by the caller. */
  synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<SpeechAudio>;
}
