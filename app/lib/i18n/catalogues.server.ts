import { createHash } from "node:crypto";
import i18next from "i18next";
import { LANGUAGES, PSEUDO_LANGUAGE, type Language, type ScreenLanguage } from "~/common/i18n/languages";
import { pseudoMessages } from "~/common/i18n/pseudo";
import type { Messages, Translator } from "~/common/i18n/translate";
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

/**
 * One i18next instance for the process, made once with every catalogue (no per-request instance):
 * the English text is the key (no key or namespace separators), values are not HTML-escaped (React
 * escapes what it renders), and a language without a text falls back to the English key itself.
 */
const instance = i18next.createInstance();
void instance.init({
  initAsync: false,
  resources: Object.fromEntries(
    Object.entries(CATALOGUES).map(([language, messages]) => [language, { translation: messages }]),
  ),
  supportedLngs: false,
  fallbackLng: false,
  keySeparator: false,
  nsSeparator: false,
  returnNull: false,
  returnEmptyString: false,
  interpolation: { escapeValue: false },
});

const translators = new Map<string, Translator>();

/** The server's translator for a language: i18next's `t`, fixed to it. */
export function translatorFor(language: ScreenLanguage): Translator {
  let translator = translators.get(language);
  if (!translator) {
    const fixed = instance.getFixedT(language);
    translator = { language, t: (key, values) => fixed(key, values ?? {}) as string };
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

export const LANGUAGE_LIST: readonly Language[] = LANGUAGES.map((language) => language.tag);
