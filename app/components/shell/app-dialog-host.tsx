import { useEffect, useRef, useSyncExternalStore } from "react";
import { currentDialog, settleDialog, subscribeToDialogs } from "~/browser/app-dialogs";
import { useT } from "~/components/ui/i18n";

const noDialog = () => null;

/**
 * The one place the app's confirmation and alert dialogs appear (app/browser/app-dialogs.ts): a modal
 * <dialog role="alertdialog"> with the focus on Cancel (on OK for an alert), Escape cancelling, and the
 * focus given back to where it was when the dialog closes.
 */
export function AppDialogHost() {
  const { t } = useT();
  const dialog = useSyncExternalStore(subscribeToDialogs, currentDialog, noDialog);
  const element = useRef<HTMLDialogElement>(null);
  const safe = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const node = element.current;
    if (!dialog || !node) return;
    if (!node.open) node.showModal();
    safe.current?.focus();
    return () => {
      if (node.open) node.close();
    };
  }, [dialog]);

  if (!dialog) return null;
  const settle = (confirmed: boolean) => {
    element.current?.close();
    settleDialog(dialog.id, confirmed);
  };
  const questionId = `app-dialog-${dialog.id}`;
  return (
    <dialog
      ref={element}
      key={dialog.id}
      className="app-dialog card"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={questionId}
      aria-describedby={dialog.detail ? `${questionId}-detail` : undefined}
      data-kind={dialog.kind}
      // Escape: the browser's cancel event; the dialog stays in React's hands.
      onCancel={(event) => {
        event.preventDefault();
        settle(false);
      }}
    >
      <p id={questionId} className="app-dialog-message">
        {dialog.message}
      </p>
      {dialog.detail ? (
        <p id={`${questionId}-detail`} className="app-dialog-detail muted">
          {dialog.detail}
        </p>
      ) : null}
      <div className="app-dialog-actions">
        {dialog.kind === "confirm" ? (
          <>
            <button ref={safe} type="button" className="button button-ghost" onClick={() => settle(false)}>
              {t("Cancel")}
            </button>
            <button
              type="button"
              className={dialog.danger ? "button button-danger" : "button"}
              onClick={() => settle(true)}
            >
              {t(dialog.confirmLabel)}
            </button>
          </>
        ) : (
          <button ref={safe} type="button" className="button" onClick={() => settle(true)}>
            {t(dialog.confirmLabel)}
          </button>
        )}
      </div>
    </dialog>
  );
}
