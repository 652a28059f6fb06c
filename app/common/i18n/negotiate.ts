import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, type Language } from "./languages";

/**
 * The offered language for one requested tag: the exact tag, else the same language in another
 * region or script (`pt` and `pt-PT` find `pt-BR`; `zh`, `zh-Hans` and `zh-TW` find `zh-CN`; `es-419`
 * finds `es`), else none.
 */
export function offeredFor(tag: string, offered: readonly string[] = LANGUAGE_TAGS): string | null {
  const wanted = tag.trim().toLowerCase();
  if (!wanted || wanted === "*") return null;
  const exact = offered.find((candidate) => candidate.toLowerCase() === wanted);
  if (exact) return exact;
  const base = wanted.split("-")[0];
  return offered.find((candidate) => candidate.toLowerCase().split("-")[0] === base) ?? null;
}

/** The requested tags of an Accept-Language header, best first (quality values; equal ones keep their order). */
export function requestedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .slice(0, 32)
    .map((part, index) => {
      const [tag, ...parameters] = part.trim().split(";");
      const q = parameters.find((parameter) => /^\s*q\s*=/i.test(parameter));
      // A quality that is not 0 to 1 with up to three decimals makes the entry unreadable: it is left out.
      const quality =
        q === undefined ? 1 : /^\s*q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/i.test(q) ? Number(q.split("=")[1]) : -1;
      return { tag: tag.trim(), quality, index };
    })
    .filter(({ tag, quality }) => quality > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag))
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map(({ tag }) => tag);
}

/** The first requested language the studio offers (by quality), else English. */
export function negotiateLanguage(
  header: string | null | undefined,
  offered: readonly string[] = LANGUAGE_TAGS,
): string {
  for (const tag of requestedLanguages(header)) {
    const found = offeredFor(tag, offered);
    if (found) return found;
  }
  return DEFAULT_LANGUAGE;
}

export type { Language };
