/**
 * The languages the studio speaks (docs/translating.md). English is the source: its texts are the
 * catalogue's keys. Adding a language is one folder of messages (app/common/i18n/locales/<tag>/) and
 * one line here.
 */
export const LANGUAGES = [
  { tag: "en", name: "English", dir: "ltr" },
  { tag: "es", name: "Español", dir: "ltr" },
  { tag: "de", name: "Deutsch", dir: "ltr" },
  { tag: "fr", name: "Français", dir: "ltr" },
  { tag: "pt-BR", name: "Português (Brasil)", dir: "ltr" },
  { tag: "ja", name: "日本語", dir: "ltr" },
  { tag: "zh-CN", name: "简体中文", dir: "ltr" },
  { tag: "ar", name: "العربية", dir: "rtl" },
] as const;

export type Language = (typeof LANGUAGES)[number]["tag"];
export const DEFAULT_LANGUAGE: Language = "en";
export const LANGUAGE_TAGS: readonly Language[] = LANGUAGES.map((language) => language.tag);

/**
 * The pseudo-language for development and the browser tests (PSEUDO_LANGUAGE=on): every English text
 * accented and about 35% longer, so a text that did not come from the catalogue, or a layout that
 * breaks with longer words, shows at a glance.
 */
export const PSEUDO_LANGUAGE = "en-XA";

/** A tag the screens may be shown in: one of the eight, or the pseudo-language where it is on. */
export type ScreenLanguage = Language | typeof PSEUDO_LANGUAGE;

export function isLanguage(tag: unknown): tag is Language {
  return typeof tag === "string" && (LANGUAGE_TAGS as readonly string[]).includes(tag);
}

export function directionOf(tag: string): "ltr" | "rtl" {
  return LANGUAGES.find((language) => language.tag === tag)?.dir ?? "ltr";
}

/** The language's own name ("Deutsch"), for the language menus. */
export function nameOf(tag: string): string {
  if (tag === PSEUDO_LANGUAGE) return "Ƥşḗḗŭŭḓǿǿ";
  return LANGUAGES.find((language) => language.tag === tag)?.name ?? tag;
}
