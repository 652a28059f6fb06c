/** docs/api.md#every-call voice generate: the text is bounded (the server validates it; screens cut replies to fit). */
export const SPEECH_TEXT_MAX = 2000;

/** Cuts long text at the last sentence (or word) end within the limit. */
export function speakableText(text: string, max = SPEECH_TEXT_MAX): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const head = trimmed.slice(0, max);
  const sentenceEnd = Math.max(
    head.lastIndexOf(". "),
    head.lastIndexOf("! "),
    head.lastIndexOf("? "),
    head.lastIndexOf("\n"),
  );
  if (sentenceEnd > max / 2) return head.slice(0, sentenceEnd + 1).trim();
  const wordEnd = head.lastIndexOf(" ");
  return (wordEnd > max / 2 ? head.slice(0, wordEnd) : head).trim();
}
