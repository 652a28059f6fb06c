import { describe, expect, it } from "vitest";
import { englishFromCode, readCatalogue, serialize } from "../../scripts/i18n-catalogue.mjs";
import { LANGUAGE_TAGS, PSEUDO_LANGUAGE, type ScreenLanguage } from "../../app/common/i18n/languages";
import { createTranslator, type Messages } from "../../app/common/i18n/translate";
import i18next from "i18next";
import { CATALOGUES } from "../../app/lib/i18n/catalogues.server";
import fs from "node:fs";

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const english: Messages = readCatalogue("en");
/** English keys without their plural suffix: the counted texts. */
const counted = new Set(
  Object.keys(english)
    .filter((key) => key.endsWith("_other") && `${key.slice(0, -"_other".length)}_one` in english)
    .map((key) => key.slice(0, -"_other".length)),
);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort();
const baseOf = (key: string) => {
  const base = key.replace(PLURAL_SUFFIX, "");
  return counted.has(base) ? base : key;
};

describe("the catalogue (docs/translating.md#checks)", () => {
  it("English is exactly what the code asks for (`npm run i18n:extract` writes it)", () => {
    const fromCode = englishFromCode();
    expect(Object.keys(english).sort()).toEqual(Object.keys(fromCode).sort());
    expect(fs.readFileSync("app/common/i18n/locales/en/messages.json", "utf8")).toBe(serialize(fromCode));
  });

  for (const tag of LANGUAGE_TAGS.filter((tag) => tag !== "en")) {
    describe(tag, () => {
      const messages: Messages = readCatalogue(tag);
      const forms = new Intl.PluralRules(tag).resolvedOptions().pluralCategories;
      const expected = new Set(
        Object.keys(english).flatMap((key) => {
          const base = baseOf(key);
          if (!counted.has(base)) return [key];
          return key.endsWith("_other") ? forms.map((form) => `${base}_${form}`) : [];
        }),
      );

      it("has every key, each plural form the language needs, and nothing else", () => {
        const keys = new Set(Object.keys(messages));
        expect(
          [...expected].filter((key) => !keys.has(key)),
          "missing",
        ).toEqual([]);
        expect(
          [...keys].filter((key) => !expected.has(key)),
          "extra",
        ).toEqual([]);
      });

      it("keeps each text's placeholders, and leaves no text empty", () => {
        for (const [key, text] of Object.entries(messages)) {
          expect(text.trim(), key).not.toBe("");
          const base = baseOf(key);
          const source = counted.has(base) ? english[`${base}_other`] : english[key];
          if (source === undefined) continue;
          const wanted = placeholders(source).filter((name) => !(counted.has(base) && name === "count"));
          const got = placeholders(text).filter((name) => !(counted.has(base) && name === "count"));
          expect(got, `${tag}: ${key}`).toEqual(wanted);
        }
      });
    });
  }

  it("the reader gives exactly i18next's text for every message of every language (the catalogue is i18next's format)", async () => {
    const samples = [0, 1, 2, 3, 5, 11, 100, 1.5];
    const instance = i18next.createInstance();
    await instance.init({
      resources: Object.fromEntries(
        Object.entries(CATALOGUES).map(([tag, messages]) => [tag, { translation: messages }]),
      ),
      supportedLngs: false,
      fallbackLng: false,
      keySeparator: false,
      nsSeparator: false,
      returnEmptyString: false,
      interpolation: { escapeValue: false },
    });
    for (const tag of [...LANGUAGE_TAGS, PSEUDO_LANGUAGE] as ScreenLanguage[]) {
      const reader = createTranslator(tag, CATALOGUES[tag]);
      const fixed = instance.getFixedT(tag);
      const server = { t: (key: string, values: Record<string, unknown>) => fixed(key, values) as string };
      for (const key of Object.keys(english)) {
        const base = baseOf(key);
        const values = Object.fromEntries(placeholders(english[key]).map((name) => [name, `<${name}>`]));
        if (counted.has(base)) {
          for (const count of samples) {
            const counts = { ...values, count };
            expect(reader.t(base, counts), `${tag}: ${base} (${count})`).toBe(server.t(base, counts));
          }
        } else expect(reader.t(key, values), `${tag}: ${key}`).toBe(server.t(key, values));
      }
    }
  });
});
