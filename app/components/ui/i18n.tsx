import { createContext, useContext } from "react";
import { createTranslator, type Translator } from "~/common/i18n/translate";

/**
 * The screens' translator: made by the server's render (app/entry.server.tsx) for the request's
 * language, and in the browser from the catalogue the page names (app/entry.client.tsx), so both
 * render the same text. Without a provider (a unit test) every text is its English key.
 */
const ENGLISH = createTranslator("en", {});
const TranslatorContext = createContext<Translator>(ENGLISH);

export const TranslatorProvider = TranslatorContext.Provider;

let browserTranslator: Translator | null = null;

/** In the browser, before hydration (app/entry.client.tsx): the page's translator, for pageTranslator. */
export function setPageTranslator(translator: Translator): void {
  browserTranslator = translator;
}

/**
 * The page's translator outside React (a clientAction's toast, when its request got no answer): the
 * one the page hydrated with; English where there is none (the server, a unit test).
 */
export function pageTranslator(): Translator {
  return browserTranslator ?? ENGLISH;
}

/** `const { t, language } = useT();` then `t(englishText)`, or `t(englishText, { count })` for a counted text. */
export function useT(): Translator {
  return useContext(TranslatorContext);
}
