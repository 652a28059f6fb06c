/**
 * The assistant's voice list as the screen shows it, the same on the server (the loader, for pages
 * without JavaScript) and in the browser (the API call of SPEC §7).
 */
export interface VoiceOption {
  voice_id: string;
  name: string;
}

/** SPEC §8: when the voice list fails, one default voice; an empty id lets the server pick its first voice. */
export const FALLBACK_VOICE: VoiceOption = { voice_id: "", name: "Creative Voice" };

/** The listed voices, or SPEC §8's fallback voice when listing them fails (an empty list stays empty: "No Options"). */
export async function voicesOrFallback(list: () => Promise<VoiceOption[]>, onError?: (error: unknown) => void): Promise<VoiceOption[]> {
  try {
    return await list();
  } catch (error) {
    onError?.(error);
    return [FALLBACK_VOICE];
  }
}
