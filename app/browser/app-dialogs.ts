import { msg } from "~/common/i18n/translate";

/**
 * The app's own confirmation and alert dialogs, in place of the browser's native ones
 * (docs/screens.md#dialogs): callable from any event handler or hook, shown one at a time by the one
 * <AppDialogHost> in the root layout. Each request remembers the element that had the focus, so the
 * host can give it back when the dialog closes.
 */

export type DialogRequest = {
  id: number;
  kind: "confirm" | "alert";
  /** The question or the alert's words (SPEC's texts stay word for word), in the screen's language (the caller's t()). */
  message: string;
  /** A second line, e.g. what else goes with the item. */
  detail?: string;
  /** The confirming button's label ("Delete", "Leave"), an English catalogue key or the caller's t(); alerts have only OK. */
  confirmLabel: string;
  /** A destructive action: the confirming button is styled as danger. */
  danger: boolean;
  opener: HTMLElement | null;
  settle: (confirmed: boolean) => void;
};

export type ConfirmOptions = {
  message: string;
  detail?: string;
  confirmLabel?: string;
  danger?: boolean;
};

let nextId = 1;
const queue: DialogRequest[] = [];
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function request(kind: DialogRequest["kind"], options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const active = typeof document === "undefined" ? null : document.activeElement;
    queue.push({
      id: nextId++,
      kind,
      message: options.message,
      detail: options.detail,
      confirmLabel: options.confirmLabel ?? (kind === "alert" ? msg("OK") : msg("Delete")),
      danger: options.danger ?? kind === "confirm",
      opener: active instanceof HTMLElement && active !== document.body ? active : null,
      settle: resolve,
    });
    notify();
  });
}

/** Asks in the app's confirmation dialog; resolves true for the confirming button, false for Cancel or Escape. */
export function confirmInApp(options: ConfirmOptions): Promise<boolean> {
  return request("confirm", options);
}

/** Shows `message` in the app's alert dialog; resolves when it is dismissed. */
export async function alertInApp(message: string, detail?: string): Promise<void> {
  await request("alert", { message, detail });
}

/** The dialog on screen now (the first in the queue), for the host. */
export function currentDialog(): DialogRequest | null {
  return queue[0] ?? null;
}

export function subscribeToDialogs(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Ends the current dialog: the host has closed it; the focus goes back before the caller goes on. */
export function settleDialog(id: number, confirmed: boolean): void {
  const index = queue.findIndex((dialog) => dialog.id === id);
  if (index < 0) return;
  const [done] = queue.splice(index, 1);
  if (done.opener?.isConnected) done.opener.focus();
  notify();
  done.settle(confirmed);
}

/** Dialogs left open when the page goes (a navigation): they count as cancelled. */
export function cancelAllDialogs(): void {
  for (const dialog of [...queue]) settleDialog(dialog.id, false);
}
