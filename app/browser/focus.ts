/**
 * Where keyboard focus goes when the control it was on goes away (a delete, a move, a rename), so that
 * it never falls back to <body> and a keyboard or screen-reader user keeps their place.
 */

/** Focuses `element`, making a non-focusable one (a heading) focusable by script only. */
export function focusElement(element: HTMLElement | null | undefined): boolean {
  if (!element) return false;
  if (!element.matches("a[href], button, input, select, textarea, [tabindex]")) element.tabIndex = -1;
  element.focus();
  return document.activeElement === element;
}

const shown = (element: Element | null): element is HTMLElement => element instanceof HTMLElement && !element.hidden;

/**
 * Before `item` (a list row) is removed or hidden: focuses the same control (`control`, a selector)
 * in the next shown row, or in the previous one when it was the last, or `fallback` (e.g. the list's
 * heading) when it was the only one.
 */
export function focusAfterRemoval(
  item: Element | null,
  control: string,
  fallback: () => HTMLElement | null | undefined,
): void {
  const find = (step: "nextElementSibling" | "previousElementSibling") => {
    for (let row = item?.[step] ?? null; row; row = row[step]) {
      const target = shown(row) ? row.querySelector<HTMLElement>(control) : null;
      if (target) return target;
    }
    return null;
  };
  if (!focusElement(find("nextElementSibling") ?? find("previousElementSibling"))) focusElement(fallback());
}
