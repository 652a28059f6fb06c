import { msg, type Translator } from "~/common/i18n/translate";

/**
 * The media refusals that carry a value (a limit, a list). The API answers them as finished English
 * (`interpolate(TEXT, values)`: its `detail` stays English, docs/translating.md); a screen that shows
 * such a detail gives it to screenText, which finds the template it was made from and says it in the
 * screen's language with the same values.
 */
export const TOO_LARGE = msg("File is too large (the limit is {{limit}})");
export const QUOTA_PASSED = msg(
  "Not enough storage left: this would pass your {{quota}} quota. Delete files in your library to make room.",
);
export const NAME_TOO_LONG = msg("Name must be at most {{max}} characters");
export const KIND_MUST_BE = msg("kind must be one of: {{kinds}}");
export const SORT_MUST_BE = msg("sort must be one of: {{sorts}}");

const TEMPLATES = [TOO_LARGE, QUOTA_PASSED, NAME_TOO_LONG, KIND_MUST_BE, SORT_MUST_BE];

const PLACEHOLDER = /\{\{(\w+)\}\}/g;
const patterns = new Map<string, { pattern: RegExp; names: string[] }>();

/** The values a text made from `template` was given, or null when it was not made from it. */
export function valuesIn(template: string, text: string): Record<string, string> | null {
  let known = patterns.get(template);
  if (!known) {
    const names = [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);
    const source = template
      .split(PLACEHOLDER)
      .map((part, index) => (index % 2 === 1 ? "(.+?)" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
    known = { pattern: new RegExp(`^${source}$`, "s"), names };
    patterns.set(template, known);
  }
  const match = known.pattern.exec(text);
  if (!match) return null;
  return Object.fromEntries(known.names.map((name, index) => [name, match[index + 1]]));
}

/**
 * A text a screen shows that came from elsewhere (an action's answer, an API `detail`): its
 * translation when the catalogue has it, else the template's with the text's values (these
 * templates, then `more`), else as it came.
 */
export function screenText(t: Translator["t"], text: string, more?: readonly string[]): string;
export function screenText(t: Translator["t"], text: string | undefined, more?: readonly string[]): string | undefined;
export function screenText(
  t: Translator["t"],
  text: string | null | undefined,
  more?: readonly string[],
): string | null | undefined;
export function screenText(
  t: Translator["t"],
  text: string | null | undefined,
  more: readonly string[] = [],
): string | null | undefined {
  if (!text) return text;
  const direct = t(text);
  if (direct !== text) return direct;
  for (const template of [...TEMPLATES, ...more]) {
    const values = valuesIn(template, text);
    if (values) return t(template, values);
  }
  return text;
}
