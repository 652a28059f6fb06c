import { confirmInApp, type ConfirmOptions } from "./app-dialogs";

/**
 * Asks before a delete in the app's dialog (docs/screens.md#dialogs). The pressed button takes the
 * focus first (a click does not focus a button in every browser), so Cancel and Escape give the focus
 * back to it; after Delete the caller moves it on (browser/focus.ts focusAfterRemoval).
 */
export function confirmDelete(button: Element | null | undefined, options: ConfirmOptions): Promise<boolean> {
  if (button instanceof HTMLElement && document.activeElement !== button) button.focus();
  return confirmInApp({ danger: true, ...options });
}

/** The button that sent a form's submit event (Enter in a field sends the form's first). */
export const submitterOf = (event: React.FormEvent<HTMLFormElement>): HTMLElement | null =>
  (event.nativeEvent as SubmitEvent).submitter ??
  event.currentTarget.querySelector<HTMLElement>('button[type="submit"], button:not([type])');
