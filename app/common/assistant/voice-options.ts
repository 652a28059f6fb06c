import type { Language } from "~/common/i18n/languages";
import { msg } from "~/common/i18n/translate";

/**
 * The assistant's voice list as the screen shows it, the same on the server (the loader, for pages
 * without JavaScript) and in the browser (the API call of docs/api.md#every-call).
 */
export interface VoiceOption {
  voice_id: string;
  name: string;
}

/** docs/screens.md#error-messages: when the voice list fails, one default voice; an empty id lets the server pick its first voice. */
export const FALLBACK_VOICE: VoiceOption = { voice_id: "", name: msg("Creative Voice") };

/** The listed voices, or the fallback voice in docs/screens.md#error-messages when listing them fails (an empty list stays empty: "No Options"). */
export async function voicesOrFallback(
  list: () => Promise<VoiceOption[]>,
  onError?: (error: unknown) => void,
): Promise<VoiceOption[]> {
  try {
    return await list();
  } catch (error) {
    onError?.(error);
    return [FALLBACK_VOICE];
  }
}

/** eSpeak-NG's English voices are its `gmw/en…` family (app/ai/speech/espeak-speech.server.ts lists them first). */
export const ESPEAK_ENGLISH_VOICE = /^gmw\/en(-|$)/;

/**
 * eSpeak-NG's English voices by the names the engine gives them, marked for the catalogue: the screens
 * show a voice's name in their language (`t(voice.name)`); a provider's other names stay as they are.
 */
export const ESPEAK_ENGLISH_VOICE_NAMES = [
  msg("English (America)"),
  msg("English (Great Britain)"),
  msg("English (Received Pronunciation)"),
  msg("English (Scotland)"),
  msg("English (Caribbean)"),
  msg("English (America, New York City)"),
  msg("English (Lancaster)"),
  msg("English (West Midlands)"),
] as const;

/**
 * eSpeak-NG's voices for the other screen languages, best first, with the names the studio gives them
 * (the engine lists them after its English ones). A screen in one of these languages offers them
 * first, and speaks a reply in the first of them unless the person chose another voice.
 */
export const ESPEAK_LANGUAGE_VOICES: Readonly<Record<Exclude<Language, "en">, readonly VoiceOption[]>> = {
  es: [
    { voice_id: "roa/es", name: msg("Spanish (Spain)") },
    { voice_id: "roa/es-419", name: msg("Spanish (Latin America)") },
  ],
  de: [{ voice_id: "gmw/de", name: msg("German") }],
  fr: [
    { voice_id: "roa/fr", name: msg("French (France)") },
    { voice_id: "roa/fr-BE", name: msg("French (Belgium)") },
    { voice_id: "roa/fr-CH", name: msg("French (Switzerland)") },
  ],
  "pt-BR": [{ voice_id: "roa/pt-BR", name: msg("Portuguese (Brazil)") }],
  ja: [{ voice_id: "jpx/ja", name: msg("Japanese") }],
  "zh-CN": [{ voice_id: "sit/cmn", name: msg("Chinese (Mandarin)") }],
  ar: [{ voice_id: "sem/ar", name: msg("Arabic") }],
};

/** How well a voice speaks the screen's language: its place among the language's voices, or -1. */
function rankFor(voiceId: string, language: string): number {
  if (language === "en" || language === "en-XA") return ESPEAK_ENGLISH_VOICE.test(voiceId) ? 0 : -1;
  const voices = ESPEAK_LANGUAGE_VOICES[language as Exclude<Language, "en">] ?? [];
  return voices.findIndex((voice) => voice.voice_id === voiceId);
}

/**
 * The list with the screen language's voices first (best first), the others after them in the
 * provider's order. A provider whose voices say no language (ElevenLabs, OpenAI) keeps its order.
 */
export function voicesInLanguageFirst<T extends VoiceOption>(voices: readonly T[], language: string): T[] {
  const ranked = voices.map((voice, index) => ({ voice, index, rank: rankFor(voice.voice_id, language) }));
  ranked.sort((a, b) => {
    const aFirst = a.rank >= 0;
    const bFirst = b.rank >= 0;
    if (aFirst !== bFirst) return aFirst ? -1 : 1;
    return (aFirst ? a.rank - b.rank : 0) || a.index - b.index;
  });
  return ranked.map(({ voice }) => voice);
}
