/**
 * An element inside a translated sentence: the sentence stays whole for its translators, with
 * `{{place}}` (any placeholder) given MARK, and the element goes where MARK lands in the language.
 */
export const MARK = "\u0000";

/** The translated `text` with `children` where MARK stands. */
export function SentenceWith({ text, children }: { text: string; children: React.ReactNode }) {
  const [before, after = ""] = text.split(MARK);
  return (
    <>
      {before}
      {children}
      {after}
    </>
  );
}
