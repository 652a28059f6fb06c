/** The assistant capability: one question in, one reply out, for a signed-in person. */
export interface ChatReply {
  reply: string;
  /** Which provider answered, e.g. "offline-assistant" or "openai-compatible:llama3.2". */
  provider: string;
}

export interface ChatProvider {
  /** Stable id for health and logs. */
  readonly id: string;
  /** True for the offline assistant: screens label its answers as such. */
  readonly offline: boolean;
  reply(userId: string, message: string, signal?: AbortSignal): Promise<ChatReply>;
}

/** The longest question the assistant takes (and what the screens allow). */
export const MESSAGE_MAX = 4000;

/** What remote models are told about the studio, so their answers fit it. */
export const STUDIO_SYSTEM_PROMPT =
  "You are the assistant of Creative AI Studio, a web app for creators with these tools: Create (text content), " +
  "AI Assistant, Drawing Pad (sketch to AI image), Music, AI Video, Video Hub, Image Generator, Voices (MP3 clips), " +
  "Voice Memo, Projects, Camera and AI x AI. Answer briefly and helpfully in plain text.";
