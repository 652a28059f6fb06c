import { Form, Link } from "react-router";
import { useT } from "~/components/ui/i18n";
import { msg } from "~/common/i18n/translate";

/**
 * Without JavaScript, a delete asks on its screen first (docs/screens.md#dialogs): this panel, with the
 * item's name in the question, posts the same intent again with `confirmed=1`; Cancel goes back.
 * With JavaScript the app's dialog asks instead (browser/confirm-delete.ts). The question and detail
 * are the caller's t(); `confirmLabel` an English catalogue key (msg()) or the caller's t().
 */
export function ConfirmPanel({
  question,
  detail,
  action,
  fields,
  cancelTo,
  confirmLabel = msg("Delete"),
}: {
  question: string;
  detail?: string;
  /** Where the form posts (the screen's own action). */
  action: string;
  /** The hidden fields of the delete (intent, id or name, where to return). */
  fields: Record<string, string>;
  cancelTo: string;
  confirmLabel?: string;
}) {
  const { t } = useT();
  return (
    <Form
      method="post"
      action={action}
      className="card confirm-panel"
      role="alertdialog"
      aria-labelledby="confirm-delete"
      aria-describedby={detail ? "confirm-delete-detail" : undefined}
      data-testid="confirm-panel"
    >
      <p id="confirm-delete" className="confirm-question">
        {question}
      </p>
      {detail ? (
        <p id="confirm-delete-detail" className="confirm-detail muted">
          {detail}
        </p>
      ) : null}
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="confirmed" value="1" />
      <div className="confirm-actions">
        <button type="submit" className="button button-danger">
          {t(confirmLabel)}
        </button>
        <Link className="button button-ghost" to={cancelTo}>
          {t("Cancel")}
        </Link>
      </div>
    </Form>
  );
}
