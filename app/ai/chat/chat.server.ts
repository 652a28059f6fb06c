import type { ScreenLanguage } from "~/common/i18n/languages";

/** The assistant capability: one question in, one reply out. Providers know no users: the caller passes what they may read. */
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
  /** True when the provider answers from the person's own content (the caller then fills ChatContext). */
  readonly searchesPersonalContent: boolean;
  reply(message: string, context?: ChatContext, signal?: AbortSignal): Promise<ChatReply>;
  /** The reply in pieces as they are made (POST /api/assistant/stream); joined, they are the whole reply. */
  stream(message: string, context?: ChatContext, signal?: AbortSignal): AsyncIterable<string>;
}

/** The longest question the assistant takes (and what the screens allow). */
export const MESSAGE_MAX = 4000;

/** What remote models are told about the studio, so their answers fit it. */
export const STUDIO_SYSTEM_PROMPT =
  "You are the assistant of Creative AI Studio, a web app for creators with these tools: Create (text content), " +
  "AI Assistant, Drawing Pad (sketch to AI image), Music, AI Video, Video Hub, Image Generator, Voices (MP3 clips), " +
  "Voice Memo, Projects, Camera and AI x AI. Answer briefly and helpfully in plain text.";

/** What a search reads of a content item or a project: plain text, no ids of people. */
export interface Searchable {
  title: string;
  body: string;
  updated_at: string;
}

/** A project as the search reads it: its description and the names of its attached media. */
export interface SearchableProject extends Searchable {
  id: string;
}

/**
 * What a provider answers with besides the question: the person's own material, given to providers
 * that answer from it (the offline assistant), and the language the person reads (the screen's).
 */
export interface ChatContext {
  items?: Searchable[];
  projects?: SearchableProject[];
  /** The screen's language (app/common/i18n/languages.ts); English when none is given (an API caller). */
  language?: ScreenLanguage;
}

/** The screen languages' English names, as a model is told which language to answer in. */
const ENGLISH_NAMES: Readonly<Record<string, string>> = {
  es: "Spanish",
  de: "German",
  fr: "French",
  "pt-BR": "Brazilian Portuguese",
  ja: "Japanese",
  "zh-CN": "Simplified Chinese",
  ar: "Arabic",
};

/**
 * The system prompt for a person who reads `language`: the studio's prompt, and for a language other
 * than English, to answer in it unless the question is written in another language. English (and no
 * language: an API caller) is the studio's prompt as it always was.
 */
export function studioSystemPrompt(language?: string): string {
  const name = language ? ENGLISH_NAMES[language] : undefined;
  if (!name) return STUDIO_SYSTEM_PROMPT;
  return (
    `${STUDIO_SYSTEM_PROMPT} The person reads ${name}: answer in ${name}, ` +
    "unless the question is written in another language; then answer in the language of the question."
  );
}
