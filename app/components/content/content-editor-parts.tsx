import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { CANCEL_QUESTION, sayStatus } from "./content-texts";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import type { IconName } from "~/common/icons";
import type { EditorStatus } from "./save-states";

/** A text that begins with its own emoji ("💾 Saved") gets no icon beside it. */
const STARTS_WITH_EMOJI = /^\p{Extended_Pictographic}/u;
const TONE_ICONS: Record<NonNullable<EditorStatus>["tone"], IconName> = { success: "check", error: "x", info: "save" };

/**
 * The editor's save status: a quiet line of text and a small icon, not a message box (the words are
 * those of docs/screens.md#error-messages, in the screen's language); a live region, an alert for a failure.
 */
export function StatusLine({ status }: { status: EditorStatus }) {
  const { t } = useT();
  if (!status) return null;
  return (
    <p className={`content-status content-status-${status.tone}`} role={status.tone === "error" ? "alert" : "status"}>
      {STARTS_WITH_EMOJI.test(status.text) ? null : <Icon name={TONE_ICONS[status.tone]} />}
      {sayStatus(t, status.text)}
    </p>
  );
}

/**
 * Cancel's question after an autosave, right under Cancel, brought into view with the focus on its
 * safe choice (Keep editing); Escape is Keep editing too, and the focus goes back to Cancel.
 */
export function CancelQuestion({
  viewUrl,
  onKeep,
  onRevert,
  reverting = false,
  onClose,
}: {
  viewUrl: string;
  onKeep: () => void;
  onRevert: () => void;
  /** Going back is on its way (the restore of the edit's start). */
  reverting?: boolean;
  onClose: () => void;
}) {
  const { t } = useT();
  const panel = useRef<HTMLDivElement>(null);
  const safe = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    panel.current?.scrollIntoView({ block: "nearest" });
    safe.current?.focus({ preventScroll: true });
  }, []);
  const close = () => {
    onClose();
    document.getElementById(CANCEL_ID)?.focus();
  };
  return (
    <div
      ref={panel}
      className="card confirm-panel content-cancel-question"
      role="alertdialog"
      aria-labelledby="content-cancel-question"
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        close();
      }}
    >
      <p id="content-cancel-question" className="confirm-question">
        {t(CANCEL_QUESTION)}
      </p>
      <div className="content-actions">
        <Link className="button button-primary" to={viewUrl} onClick={onKeep} preventScrollReset>
          {t("Keep the autosaved text")}
        </Link>
        <button type="button" className="button" onClick={onRevert} disabled={reverting}>
          {t("Go back to the text I began with")}
        </button>
        <button ref={safe} type="button" className="button button-ghost" onClick={close}>
          {t("Keep editing")}
        </button>
      </div>
    </div>
  );
}

/** The editor's Cancel link, which the question gives the focus back to. */
export const CANCEL_ID = "content-cancel";
