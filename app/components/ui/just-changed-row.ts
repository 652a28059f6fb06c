import { useEffect } from "react";
import { JUST_CHANGED_CLASS, type JustChangedRow } from "~/components/content/content-rows";

/**
 * With JavaScript, the just-changed row (docs/screens.md#after-create-and-a-pin) is brought to the middle of the screen
 * and its title or star takes the focus, also after an in-app navigation (which scrolls to the top);
 * without it the row's autofocus does the same when the page opens.
 */
export function useJustChangedRow(changed: JustChangedRow | null) {
  useEffect(() => {
    if (!changed) return;
    const row = document.querySelector<HTMLElement>(`#content .content-list > li.${JUST_CHANGED_CLASS}`);
    const target = row?.querySelector<HTMLElement>(changed.part === "pin" ? "button" : "a");
    if (!row || !target) return;
    target.focus({ preventScroll: true });
    row.scrollIntoView({ block: "center" });
  }, [changed]);
}
