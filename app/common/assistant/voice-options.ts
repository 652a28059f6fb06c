/**
 * The assistant's voice list as the screen shows it, the same on the server (the loader, for pages
 * without JavaScript) and in the browser (the API call of docs/api.md#every-call).
 */
export interface VoiceOption {
  voice_id: string;
  name: string;
}

/** docs/screens.md#error-messages: when the voice list fails, one default voice; an empty id lets the server pick its first voice. */
export const FALLBACK_VOICE: VoiceOption = { voice_id: "", name: "Creative Voice" };

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
