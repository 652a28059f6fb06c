import { useT } from "~/components/ui/i18n";
import { interpolate, type Translator } from "~/common/i18n/translate";
/** How close to its limit a title must be before the field counts (docs/screens.md#title-counter). */
const COUNT_FROM_REMAINING = 20;

export const titleCounterId = (field: string) => `${field}-counter`;

/** The text of the counter, or null while the title is far from its limit (in English without a `t`). */
export function titleCounterText(length: number, max: number, t: Translator["t"] = interpolate): string | null {
  if (length < max - COUNT_FROM_REMAINING) return null;
  return length >= max ? t("{{max}}/{{max}} — the limit", { max }) : `${length}/${max}`;
}

/**
 * A title field's counter, near the limit only ("185/200"), and what happens at it ("200/200 — the
 * limit") instead of the field stopping in silence. The field names it by aria-describedby.
 */
export function TitleCounter({ field, length, max }: { field: string; length: number; max: number }) {
  const { t } = useT();
  const text = titleCounterText(length, max, t);
  if (text === null) return null;
  return (
    <span id={titleCounterId(field)} className={`field-counter${length >= max ? " field-counter-full" : ""}`}>
      {text}
    </span>
  );
}

/** The ids a title field is described by: its error and its counter, as shown. */
export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const shown = ids.filter((id): id is string => !!id);
  return shown.length > 0 ? shown.join(" ") : undefined;
}
