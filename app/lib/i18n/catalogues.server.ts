import { createHash } from "node:crypto";
import { PSEUDO_LANGUAGE, type ScreenLanguage } from "~/common/i18n/languages";
import { pseudoMessages } from "~/common/i18n/pseudo";
import { createTranslator, type Messages, type Translator } from "~/common/i18n/translate";
import ar from "~/common/i18n/locales/ar/messages.json";
import de from "~/common/i18n/locales/de/messages.json";
import en from "~/common/i18n/locales/en/messages.json";
import es from "~/common/i18n/locales/es/messages.json";
import fr from "~/common/i18n/locales/fr/messages.json";
import ja from "~/common/i18n/locales/ja/messages.json";
import ptBR from "~/common/i18n/locales/pt-BR/messages.json";
import zhCN from "~/common/i18n/locales/zh-CN/messages.json";

/** Every language's messages, the pseudo-language's made from English. */
export const CATALOGUES: Readonly<Record<ScreenLanguage, Messages>> = {
  en,
  es,
  de,
  fr,
  "pt-BR": ptBR,
  ja,
  "zh-CN": zhCN,
  ar,
  [PSEUDO_LANGUAGE]: pseudoMessages(en),
};

const translators = new Map<string, Translator>();

/**
 * The server's translator for a language: the same reader the browser uses (so both render the same
 * text), made once per language. i18next itself was measured at about 100 times the reader's cost per
 * text (decision 0086); the catalogue keeps i18next's format, and a test holds the reader to i18next's
 * output for every message.
 */
export function translatorFor(language: ScreenLanguage): Translator {
  let translator = translators.get(language);
  if (!translator) {
    translator = createTranslator(language, CATALOGUES[language]);
    translators.set(language, translator);
  }
  return translator;
}

/** A language's catalogue as the browser fetches it, with a version that changes with its text. */
interface Published {
  body: string;
  version: string;
}
const published = new Map<string, Published>();

export function publishedCatalogue(language: ScreenLanguage): Published {
  let entry = published.get(language);
  if (!entry) {
    const body = JSON.stringify(CATALOGUES[language]);
    entry = { body, version: createHash("sha256").update(body).digest("base64url").slice(0, 12) };
    published.set(language, entry);
  }
  return entry;
}

/** Where the browser fetches the language's catalogue before it hydrates the page (app/entry.client.tsx). */
export function catalogueUrl(language: ScreenLanguage): string {
  return `/locales/${language}.json?v=${publishedCatalogue(language).version}`;
}
