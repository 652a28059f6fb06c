/**
 * The catalogue's format is i18next's JSON (v4): the English text is the key, `{{name}}` takes a
 * value, and a text with a `count` has one entry per plural form of the language (`key_one`,
 * `key_other`, and `_zero`, `_two`, `_few`, `_many` where CLDR has them). This reader serves the server
 * and the browser alike, in about a kilobyte and about a hundredth of i18next's time per text
 * (docs/decisions/0086-languages.md); a test holds it to i18next's output for every message of every
 * language (tests/unit/i18n-catalogue.test.ts).
 */
export type Messages = Readonly<Record<string, string>>;
export type Values = Readonly<Record<string, string | number | undefined>>;

export interface Translator {
  /** The language the texts are in (a BCP 47 tag: `lang`, Intl). */
  readonly language: string;
  /** The text for an English source text, in the language; the English text when it has none. */
  t(key: string, values?: Values): string;
}

/**
 * Marks an English text as a catalogue key where it is defined rather than where it is shown (texts
 * shared by an action, a component and the API): `npm run i18n:extract` finds it, and the screen
 * shows `t(TEXT)`. The value is the English text unchanged.
 */
export function msg<T extends string>(text: T): T {
  return text;
}

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

export function interpolate(text: string, values?: Values): string {
  if (!values || !text.includes("{{")) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : String(value);
  });
}

const pluralRules = new Map<string, Intl.PluralRules>();
export function pluralFormOf(language: string, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language === "en-XA" ? "en" : language);
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

export function createTranslator(language: string, messages: Messages): Translator {
  return {
    language,
    t(key, values) {
      let text: string | undefined;
      const count = values?.count;
      if (typeof count === "number") {
        text = messages[`${key}_${pluralFormOf(language, count)}`] ?? messages[`${key}_other`];
      }
      text ??= messages[key] ?? key;
      return interpolate(text, values);
    },
  };
}
