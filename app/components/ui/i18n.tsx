import { createContext, useContext } from "react";
import { createTranslator, type Translator } from "~/common/i18n/translate";

/**
 * The screens' translator: made by the server's render (app/entry.server.tsx) for the request's
 * language, and in the browser from the catalogue the page names (app/entry.client.tsx), so both
 * render the same text. Without a provider (a unit test) every text is its English key.
 */
const TranslatorContext = createContext<Translator>(createTranslator("en", {}));

export const TranslatorProvider = TranslatorContext.Provider;

/** `const { t, language } = useT();` then `t(englishText)`, or `t(englishText, { count })` for a counted text. */
export function useT(): Translator {
  return useContext(TranslatorContext);
}
