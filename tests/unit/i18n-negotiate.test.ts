import { describe, expect, it } from "vitest";
import { negotiateLanguage, offeredFor, requestedLanguages } from "../../app/common/i18n/negotiate";
import { createTranslator, interpolate } from "../../app/common/i18n/translate";
import { pseudoText } from "../../app/common/i18n/pseudo";
import { formatDateTime, formatNumber, formatRelative, formatSize } from "../../app/common/i18n/formats";
import { formatBytes } from "../../app/common/bytes";

describe("which language a browser asks for (docs/translating.md#which-language)", () => {
  it.each([
    ["de", "de"],
    ["de-AT,de;q=0.9", "de"],
    ["pt", "pt-BR"],
    ["pt-PT", "pt-BR"],
    ["zh", "zh-CN"],
    ["zh-Hans", "zh-CN"],
    ["zh-Hans-CN", "zh-CN"],
    ["ar-EG", "ar"],
    ["es-419", "es"],
    ["ja-JP", "ja"],
    ["fr-CA, de;q=0.9", "fr"],
    // Quality values decide, not the order written; a language not offered is passed over.
    ["de;q=0.5, fr;q=0.9", "fr"],
    ["sv, de;q=0.5", "de"],
    ["en-US,en;q=0.9,de;q=0.8", "en"],
    ["de;q=0", "en"],
    ["sv", "en"],
    ["*", "en"],
    ["", "en"],
    ["!!garbage;;q=x", "en"],
  ])("Accept-Language %j answers %s", (header, language) => {
    expect(negotiateLanguage(header)).toBe(language);
  });

  it("reads at most 32 entries of a long header and ignores malformed ones", () => {
    expect(requestedLanguages(`${"xx,".repeat(100)}de`)).toHaveLength(32);
    expect(requestedLanguages("de;q=2, fr;q=abc, ja, es;q=0.5")).toEqual(["ja", "es"]);
    expect(offeredFor("PT-br")).toBe("pt-BR");
  });
});

describe("the browser's reader of the catalogue", () => {
  it("fills placeholders, picks the language's plural form, and falls back to the English key", () => {
    const arabic = createTranslator("ar", {
      "{{count}} files_zero": "لا ملفات",
      "{{count}} files_one": "ملف واحد",
      "{{count}} files_two": "ملفان",
      "{{count}} files_few": "{{count}} ملفات",
      "{{count}} files_many": "{{count}} ملفًا",
      "{{count}} files_other": "{{count}} ملف",
      "Hello {{name}}": "مرحبًا {{name}}",
    });
    expect([0, 1, 2, 3, 11, 100].map((count) => arabic.t("{{count}} files", { count }))).toEqual([
      "لا ملفات",
      "ملف واحد",
      "ملفان",
      "3 ملفات",
      "11 ملفًا",
      "100 ملف",
    ]);
    expect(arabic.t("Hello {{name}}", { name: "Ada" })).toBe("مرحبًا Ada");
    expect(arabic.t("Not in the catalogue")).toBe("Not in the catalogue");
    expect(interpolate("{{a}} and {{ b }}", { a: 1 })).toBe("1 and {{ b }}");
  });

  it("makes the pseudo-language longer, accented and bracketed, with placeholders intact", () => {
    const text = pseudoText("Save {{count}} files");
    expect(text).toMatch(/^［.*］$/);
    expect(text).toContain("{{count}}");
    expect(text.length).toBeGreaterThan("Save {{count}} files".length * 1.2);
  });
});

describe("formats in the screen's language", () => {
  it("keeps English sizes exactly as the byte formatter writes them, and localises the number elsewhere", () => {
    for (const bytes of [0, 1023, 1024, 1536, 25 * 1024 * 1024, 3.25 * 1024 ** 3])
      expect(formatSize("en", bytes)).toBe(formatBytes(bytes));
    expect(formatSize("de", 1536)).toBe("1,5 KiB");
    // In Arabic the number and its Latin unit stay one left-to-right run inside the sentence.
    expect(formatSize("ar", 1536)).toMatch(/^\u2066.+ KiB\u2069$/);
    expect(formatNumber("de", 100000)).toBe("100.000");
  });

  it("writes dates and relative times in the language", () => {
    const when = "2026-12-07T13:05:00Z";
    expect(formatDateTime("en", when)).toBe("Dec 7, 2026, 1:05 PM UTC");
    expect(formatDateTime("de", when)).toBe("07.12.2026, 13:05 UTC");
    const now = Date.parse(when) + 3 * 60_000;
    expect(formatRelative("en", when, now)).toBe("3 minutes ago");
    expect(formatRelative("fr", when, now)).toBe("il y a 3 minutes");
  });
});
