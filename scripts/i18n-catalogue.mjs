// @ts-check
// The catalogue's English side, read from the code (docs/translating.md): every `t("…")` and
// `msg("…")` with a literal English text is a key; a `t("…", { count })` has one key per English
// plural form (`_one`, `_other`). `npm run i18n:extract` writes app/common/i18n/locales/en/messages.json
// (keeping texts already there, so English plural forms written by hand stay); the unit test
// tests/unit/i18n-catalogue.test.ts fails when the file and the code disagree, or another language
// lacks a key, has an extra one, or changes a text's placeholders.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const localesDir = path.join(root, "app/common/i18n/locales");
const SOURCE = /\.(ts|tsx)$/;
const CALL = /(?<![\w$])(?:t|msg)\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$]|\\.)*`)\s*(?=[,)])/g;

/** @param {string} dir @returns {string[]} */
function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "locales" ? [] : sources(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** @param {string} literal */
function textOf(literal) {
  const quote = literal[0];
  const inner = literal.slice(1, -1);
  if (quote === '"') return JSON.parse(literal);
  // Single quotes and template literals without placeholders: the same escapes as a JSON string.
  return JSON.parse(
    `"${inner
      .replace(/\\(['`])/g, "$1")
      .replace(/(?<!\\)"/g, '\\"')
      .replace(/\n/g, "\\n")}"`,
  );
}

/**
 * Every key the code uses, with whether it is counted (plural forms) and where it is first used.
 * @returns {Map<string, { plural: boolean; file: string }>}
 */
export function keysInCode() {
  /** @type {Map<string, { plural: boolean; file: string }>} */
  const keys = new Map();
  for (const file of sources(path.join(root, "app"))) {
    const code = fs.readFileSync(file, "utf8");
    for (const match of code.matchAll(CALL)) {
      const text = textOf(match[1]);
      const after = code.slice(match.index + match[0].length, match.index + match[0].length + 300);
      const plural = /^\s*,\s*\{[^}]*\bcount\b/.test(after);
      const known = keys.get(text);
      keys.set(text, { plural: (known?.plural ?? false) || plural, file: known?.file ?? path.relative(root, file) });
    }
  }
  return keys;
}

/** @param {string} tag @returns {Record<string, string>} */
export function readCatalogue(tag) {
  return JSON.parse(fs.readFileSync(path.join(localesDir, tag, "messages.json"), "utf8"));
}

/** The English catalogue the code asks for, texts already written kept. */
export function englishFromCode() {
  const existing = readCatalogue("en");
  /** @type {Record<string, string>} */
  const english = {};
  for (const [key, { plural }] of [...keysInCode()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (plural) {
      english[`${key}_one`] = existing[`${key}_one`] ?? key;
      english[`${key}_other`] = existing[`${key}_other`] ?? key;
    } else english[key] = existing[key] ?? key;
  }
  return english;
}

export function serialize(/** @type {Record<string, string>} */ messages) {
  return JSON.stringify(messages, null, 2) + "\n";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const english = englishFromCode();
  fs.writeFileSync(path.join(localesDir, "en/messages.json"), serialize(english));
  const tags = fs.readdirSync(localesDir).filter((tag) => tag !== "en");
  console.log(`[i18n] ${Object.keys(english).length} English texts`);
  for (const tag of tags) {
    const messages = readCatalogue(tag);
    const missing = Object.keys(english).filter(
      (key) => !(key.replace(/_(one|other)$/, "") in messages) && !(key in messages),
    );
    console.log(`[i18n] ${tag}: ${Object.keys(messages).length} texts, about ${missing.length} to translate`);
  }
}
