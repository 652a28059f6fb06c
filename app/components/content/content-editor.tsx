import { useEffect, useRef, useState } from "react";
import { Form, Link, useAsyncError, useNavigate, useSearchParams } from "react-router";
import { focusElement } from "~/browser/focus";
import { DeleteConfirmation } from "./content-delete-confirmation";
import { FlashFallback } from "~/components/shell/flash-message";
import { CANCEL_ID, CancelQuestion, StatusLine } from "./content-editor-parts";
import {
  CANCEL_ASKS,
  CANCEL_DROPS,
  LOAD_FAILED,
  SAVING_STATUS,
  UNSAVED_STATUS,
  type EditableItem,
  type EditorLimits,
  type SaveFailure,
} from "./content-texts";
import type { EditorStatus } from "./save-states";
import { useSaveQueue } from "./use-save-queue";
import { useEditStartRestore } from "./use-edit-start-restore";
import { Icon } from "~/components/ui/icon";
import { useT } from "~/components/ui/i18n";
import { useFollowLinksInApp } from "~/components/shell/in-app-links";
import { Skeleton } from "~/components/shell/page-header";
import { describedBy, TitleCounter, titleCounterId, titleCounterText } from "~/components/ui/title-counter";

export function ContentLoading() {
  const { t } = useT();
  return <Skeleton label={t("Loading...")} className="content-loading" />;
}

export function ContentLoadFailed() {
  // A deferred load that was answered with a redirect (the session ended) goes where it points.
  const error = useAsyncError();
  useEffect(() => {
    if (error instanceof Response && error.status >= 300 && error.status < 400) {
      const location = error.headers.get("Location");
      if (location) window.location.assign(location);
    }
  }, [error]);
  return <LoadFailedNotice />;
}

/** The piece could not be shown (a failed load, or one that is not the person's): the message and a way back. */
export function LoadFailedNotice() {
  const { t } = useT();
  return (
    <>
      <p className="message message-error" role="alert">
        {t(LOAD_FAILED)}
      </p>
      <p>
        <Link className="button" to="/dashboard">
          <Icon name="arrow-left" />
          {t("Back to Dashboard")}
        </Link>
      </p>
    </>
  );
}

/**
 * View and edit of one item. Edit mode is `?edit=1`, so Edit, Save and Cancel also work as plain links
 * and a plain form posting to the screen's action without JavaScript. With JavaScript the form's Save
 * joins the autosave's queue (useSaveQueue), which saves through the API client.
 */
export function ContentEditor({
  item,
  limits,
  saveFailure,
  share,
}: {
  item: EditableItem;
  limits: EditorLimits;
  saveFailure: SaveFailure | null;
  /** The view's Share control and, without JavaScript, its panel (docs/screens.md#sharing); none when sharing is off. */
  share?: { control: React.ReactNode; panel: React.ReactNode } | null;
}) {
  const { t } = useT();
  const [searchParams] = useSearchParams();
  const editing = searchParams.get("edit") === "1";
  const navigate = useNavigate();
  const viewUrl = `/content/${encodeURIComponent(item.id)}`;
  const editor = useSaveQueue({ item, editing, saveFailure });
  const { saved, draft, status, conflict, saving, autosaving, dirty, autosavedThisEdit } = editor;
  // Cancel after an autosave: keep what was saved, or go back to the version the edit began with.
  const [askingCancel, setAskingCancel] = useState(false);
  const goBack = useEditStartRestore(viewUrl, editor, (outcome) => {
    setAskingCancel(false);
    if (outcome === "saved") navigate(viewUrl, { preventScrollReset: true });
  });
  const asksOnCancel = autosavedThisEdit && !conflict;
  const fieldErrors = saveFailure?.fieldErrors ?? {};
  // The edit's status line: what went wrong or was restored, else a save on its way, else unsaved changes, else the last save.
  const editStatus: EditorStatus =
    status && status.tone !== "success"
      ? status
      : saving || autosaving
        ? { tone: "info", text: SAVING_STATUS }
        : dirty
          ? { tone: "info", text: UNSAVED_STATUS }
          : status;

  // Ctrl/Cmd+S saves the edit (and stays in it) instead of the browser saving the page.
  const saveRef = useRef(editor.save);
  saveRef.current = editor.save;
  useEffect(() => {
    if (!editing) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== "s" || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey)
        return;
      event.preventDefault();
      void saveRef.current("manual");
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [editing]);
  const followLink = useFollowLinksInApp();

  // Edit, Save and Cancel unmount the control that was pressed: focus goes to the title field in edit
  // mode and to the (renamed) title after it, never to <body>.
  const modeSwitched = useRef(false);
  const titleRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!modeSwitched.current) {
      modeSwitched.current = true;
      return;
    }
    const active = document.activeElement;
    if (!active || active === document.body) focusElement(titleRef.current);
  }, [editing]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void editor.save("manual").then((outcome) => {
      if (outcome === "saved") navigate(viewUrl, { preventScrollReset: true });
    });
  };

  if (!editing) {
    return (
      <article className="content-view">
        <FlashFallback />
        {searchParams.get("confirm") === "delete" ? (
          <DeleteConfirmation id={item.id} redirectTo={searchParams.get("redirectTo")} />
        ) : null}
        <h1 className="content-view-title" ref={titleRef as React.RefObject<HTMLHeadingElement>}>
          {saved.title}
        </h1>
        {saved.body ? (
          <div className="card content-body">{saved.body}</div>
        ) : (
          <p className="muted content-body-empty">{t("No content yet.")}</p>
        )}
        <StatusLine status={status} />
        {/* Plain links, followed in the app from here (in-app-links.ts; decision 0081). */}
        <div className="content-actions" onClick={followLink}>
          <a
            className="button button-primary"
            href={`${viewUrl}?edit=1`}
            onClick={editor.startEditing}
            data-keep-scroll
          >
            <Icon name="pencil" />
            {t("Edit")}
          </a>
          <a className="button" href={`${viewUrl}/history`}>
            <Icon name="rotate-ccw" />
            {t("History")}
          </a>
          <a className="button button-ghost" href="/dashboard">
            <Icon name="arrow-left" />
            {t("Back to Dashboard")}
          </a>
          {share?.control}
        </div>
        {share?.panel}
      </article>
    );
  }

  return (
    <article className="content-edit">
      <h1>{t("Edit Content")}</h1>
      <Form
        method="post"
        action={`${viewUrl}?edit=1`}
        className="card form"
        aria-label={t("Edit content")}
        onSubmit={onSubmit}
      >
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="updated_at" value={saved.updated_at} />
        <label>
          {t("Title")}
          <input
            ref={titleRef as React.RefObject<HTMLInputElement>}
            name="title"
            required
            maxLength={limits.title}
            value={draft.title}
            onChange={(event) => editor.editDraft({ title: event.target.value })}
            aria-invalid={!!fieldErrors.title}
            aria-describedby={describedBy(
              fieldErrors.title && "edit-title-error",
              titleCounterText(draft.title.length, limits.title) !== null && titleCounterId("edit-title"),
            )}
          />
          <TitleCounter field="edit-title" length={draft.title.length} max={limits.title} />
          {fieldErrors.title ? (
            <span className="field-error" id="edit-title-error">
              {fieldErrors.title}
            </span>
          ) : null}
        </label>
        <label>
          {t("Body")}
          <textarea
            name="body"
            rows={14}
            maxLength={limits.body}
            value={draft.body}
            onChange={(event) => editor.editDraft({ body: event.target.value })}
            aria-invalid={!!fieldErrors.body}
          />
          {fieldErrors.body ? <span className="field-error">{fieldErrors.body}</span> : null}
        </label>
        {/* A line of its own height, so that a status coming or going moves nothing below it. */}
        <div className="content-status-line">
          <StatusLine status={editStatus} />
        </div>
        {conflict ? (
          <p className="content-conflict">
            <button type="button" className="button button-danger" onClick={() => void editor.save("force")}>
              {t("Save my version anyway")}
            </button>{" "}
            <span className="muted">
              {t("or reload the page to see the other version (your text here would be lost).")}
            </span>
          </p>
        ) : null}
        <div className="content-actions">
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? t("Saving...") : t("Save")}
          </button>
          <Link
            id={CANCEL_ID}
            className="button button-ghost"
            to={viewUrl}
            onClick={(event) => {
              if (asksOnCancel) {
                event.preventDefault();
                setAskingCancel(true);
              } else editor.cancelEditing();
            }}
            preventScrollReset
            aria-describedby="content-cancel-note"
          >
            {t("Cancel")}
          </Link>
          <span id="content-cancel-note" className="muted content-cancel-note">
            {t(asksOnCancel ? CANCEL_ASKS : CANCEL_DROPS)}
          </span>
          {/* Right under Cancel (the row wraps), in view and with the focus. */}
          {askingCancel && asksOnCancel ? (
            <CancelQuestion
              viewUrl={viewUrl}
              onKeep={() => {
                setAskingCancel(false);
                editor.cancelEditing();
              }}
              onRevert={() => void goBack.restore()}
              reverting={goBack.restoring}
              onClose={() => setAskingCancel(false)}
            />
          ) : null}
        </div>
      </Form>
    </article>
  );
}
