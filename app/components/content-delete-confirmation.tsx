import { Form, Link } from "react-router";
import { safeRedirectPath } from "~/shared/safe-redirect";
import { DELETE_CONFIRM_TEXT } from "./dashboard-list";

/** Without JavaScript, the dashboard's Delete lands here first: docs/screens.md#error-messages "Delete this content?". */
export function DeleteConfirmation({ id, redirectTo }: { id: string; redirectTo: string | null }) {
  const back = safeRedirectPath(redirectTo, "/dashboard");
  return (
    <Form
      method="post"
      action={`/content/${encodeURIComponent(id)}`}
      className="card confirm-panel"
      role="alertdialog"
      aria-labelledby="confirm-delete"
    >
      <p id="confirm-delete" className="confirm-question">
        {DELETE_CONFIRM_TEXT}
      </p>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="confirmed" value="1" />
      {back !== "/dashboard" ? <input type="hidden" name="redirectTo" value={back} /> : null}
      <div className="content-actions">
        <button type="submit" className="button button-danger">
          Delete
        </button>
        <Link className="button button-ghost" to={back}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}
