/**
 * The toasts' own rules beside react-toastify's (docs/screens.md "Shell and toasts", decision 0065):
 * at most three at once, the oldest leaving for the newest; no icon where the text brings its own emoji.
 */

/** How many toasts show at once: a fourth sends the oldest away. */
export const TOASTS_AT_ONCE = 3;

/** A text that opens with an emoji ("✅ Saved", "⚠️ ..."): the toast adds no icon of its own beside it. */
export function startsWithEmoji(message: string): boolean {
  return /^\p{Extended_Pictographic}/u.test(message.trimStart());
}

/**
 * The shown toasts, oldest first. `shown(id)` records a new one and returns the ids to dismiss so that
 * no more than TOASTS_AT_ONCE remain; `gone(id)` forgets one that closed.
 */
export function toastStack(limit = TOASTS_AT_ONCE) {
  const ids: Array<string | number> = [];
  return {
    shown(id: string | number): Array<string | number> {
      if (!ids.includes(id)) ids.push(id);
      return ids.length > limit ? ids.splice(0, ids.length - limit) : [];
    },
    gone(id: string | number) {
      const index = ids.indexOf(id);
      if (index >= 0) ids.splice(index, 1);
    },
  };
}

/**
 * While focus is inside the toasts (Alt+T, Tab into a close button) they all wait: react-toastify pauses
 * on hover only. Returns the clean-up.
 */
export function pauseWhileFocused(toasts: { pause(): void; play(): void }): () => void {
  const inside = (node: EventTarget | null) => node instanceof Element && !!node.closest(".Toastify");
  const onFocusIn = (event: FocusEvent) => {
    if (inside(event.target)) toasts.pause();
  };
  const onFocusOut = (event: FocusEvent) => {
    if (inside(event.target) && !inside(event.relatedTarget)) toasts.play();
  };
  document.addEventListener("focusin", onFocusIn);
  document.addEventListener("focusout", onFocusOut);
  return () => {
    document.removeEventListener("focusin", onFocusIn);
    document.removeEventListener("focusout", onFocusOut);
  };
}
