import { useEffect, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { confirmDelete, submitterOf } from "~/browser/confirm-delete";
import { focusAfterRemoval, focusElement } from "~/browser/focus";
import { withFailureFallback } from "~/browser/network-safe";
import { deleteQuestion } from "~/common/delete-question";
import type { Translator } from "~/common/i18n/translate";
import type { FileAnswer, FileScreenKind, ListedFile } from "~/common/media/file-screen-kinds";
import { screenText } from "~/common/media/media-texts";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import type { Outcome } from "~/components/shell/flash-message";
import { toast } from "~/components/shell/toasts";
import { useT } from "~/components/ui/i18n";
import type { clientAction as videosAction } from "~/routes/videos";
import type { clientAction as voicesAction } from "~/routes/voices";

/** What answers the fetchers: the screen's action, Voices' or the Video Hub's (`kind.path`). */
type ScreenAction = typeof voicesAction | typeof videosAction;

/**
 * What the two file screens (Voices: ./voice-list.tsx, Video Hub: ./video-list.tsx) share: rename and
 * delete, forms posting to the screen's own action (services/media/file-screen-action.server.ts), enhanced
 * with fetchers. The lists themselves differ; what differs is in ~/common/media/file-screen-kinds.
 */
/** The screen's clientAction: a rename or delete whose request fails says the kind's failure text. */
export async function fileFailureFallback<T>(kind: FileScreenKind, request: Request, serverAction: () => Promise<T>) {
  const intent = (await request.clone().formData()).get("intent");
  return withFailureFallback(serverAction, (): FileAnswer =>
    intent === "rename"
      ? { intent, ok: false, message: kind.texts.renameFailed }
      : { intent: "delete", ok: false, message: kind.texts.deleteFailed },
  );
}

/**
 * Rename and delete of one screen's rows, and what they say. `listRef` is the list: a renamed row's
 * Rename link takes the focus there once its form is gone.
 */
export function useFileActions(
  kind: FileScreenKind,
  {
    renaming,
    actionData,
    files,
    listRef,
  }: {
    renaming: string | null;
    actionData: FileAnswer | undefined;
    files: ListedFile[];
    listRef: React.RefObject<HTMLUListElement | null>;
  },
) {
  const { texts } = kind;
  const { t } = useT();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [editing, setEditing] = useState<string | null>(renaming);
  /** A rename's refusal, shown once beside the name field (no toast); a plain form's comes back as actionData. */
  const [renameError, setRenameError] = useState<(Outcome & { name: string }) | null>(
    actionData?.intent === "rename" && !actionData.ok && actionData.name
      ? { ...actionData, name: actionData.name }
      : null,
  );
  /** The row whose Rename link takes the focus once it is shown (after a rename or a cancelled one). */
  const [focusRow, setFocusRow] = useState<string | null>(null);
  const renameFetcher = useFetcher<ScreenAction>({ key: `${kind.kind}-rename` });
  const deleteFetcher = useFetcher<ScreenAction>({ key: `${kind.kind}-delete` });
  const busyName = (renameFetcher.formData ?? deleteFetcher.formData)?.get("name") ?? null;

  /**
   * A success without a text of its own says nothing; a failure says its text in a toast and in the page.
   * The texts are the catalogue's keys (the kind's, or the action's answer): said in the screen's language.
   */
  const say = (result: Outcome, tone: "success" | "error" | "warning" = result.ok ? "success" : "error") => {
    const said = { ...result, message: t(result.message), detail: screenText(t, result.detail) };
    setOutcome(result.ok && !result.detail ? null : said);
    if (result.message) toast[tone](said.message, kind.toastMs ? { autoClose: kind.toastMs } : undefined);
  };

  useAnswer(renameFetcher, (answer) => {
    if (!answer.ok) return setRenameError({ ...answer, name: answer.name ?? editing ?? "" });
    say(answer);
    setRenameError(null);
    setEditing(null);
    setFocusRow(answer.newName ?? answer.name ?? null);
  });
  useAnswer(deleteFetcher, say);

  // The rename form unmounts when a rename ends: the renamed row's Rename link takes the focus.
  useEffect(() => {
    if (!focusRow) return;
    const link = listRef.current?.querySelector<HTMLElement>(`[data-rename="${CSS.escape(focusRow)}"]`);
    if (link) {
      setFocusRow(null);
      focusElement(link);
    }
  }, [focusRow, files, editing, listRef]);

  const stopEditing = (name: string) => {
    setRenameError(null);
    setEditing(null);
    setFocusRow(name);
  };

  const rename = (event: React.FormEvent<HTMLFormElement>, name: string) => {
    event.preventDefault();
    const newName = String(new FormData(event.currentTarget).get("new_name") ?? "").trim();
    if (!newName) {
      // Voices refuse a blank name (said beside the field); the Video Hub ignores it.
      if (texts.nameRequired) return setRenameError({ ok: false, message: texts.nameRequired, name });
      return stopEditing(name);
    }
    setRenameError(null);
    renameFetcher.submit(
      { intent: "rename", name, new_name: newName, enhanced: "1" },
      { method: "post", action: kind.path },
    );
  };

  const remove = async (event: React.FormEvent<HTMLFormElement>, name: string) => {
    event.preventDefault();
    const row = event.currentTarget.closest("li");
    // docs/screens.md#dialogs: the app's dialog asks first (without JavaScript, the screen's panel).
    if (!(await confirmDelete(submitterOf(event), { message: deleteQuestion(name, t) }))) return;
    // The row goes (and its Delete is disabled at once): the next row's Delete takes the focus.
    focusAfterRemoval(row, "button[data-delete]", () => document.querySelector<HTMLElement>("main h1"));
    await deleteFetcher.submit(
      { intent: "delete", name, enhanced: "1", confirmed: "1" },
      { method: "post", action: kind.path },
    );
  };

  const renameForm = (name: string) => {
    const error = renameError?.name === name ? renameError : null;
    const errorId = `${kind.kind}-rename-error`;
    return (
      <form method="post" className="media-rename" onSubmit={(event) => rename(event, name)}>
        <input type="hidden" name="intent" value="rename" />
        <input type="hidden" name="name" value={name} />
        <input
          name="new_name"
          defaultValue={name}
          aria-label={t("New name for {{name}}", { name })}
          maxLength={120}
          // The field the person just asked for by pressing Rename.
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={() => error && setRenameError(null)}
          onKeyDown={(event) => event.key === "Escape" && stopEditing(name)}
        />
        <button type="submit" className="button button-primary button-small" disabled={busyName === name}>
          {t("Save")}
        </button>
        {kind.renameCancel ? (
          <Link
            className="button button-ghost button-small"
            to={kind.path}
            onClick={(event) => {
              event.preventDefault();
              stopEditing(name);
            }}
          >
            {t("Cancel")}
          </Link>
        ) : null}
        {error ? (
          <p className="field-error media-rename-error" id={errorId} role="alert" data-testid="rename-error">
            {t(error.message)}
            {error.detail ? <span className="message-detail">{screenText(t, error.detail)}</span> : null}
          </p>
        ) : null}
      </form>
    );
  };

  const renameLink = (name: string) => (
    <Link
      className="button button-small"
      to={`${kind.path}?${new URLSearchParams({ rename: name })}`}
      aria-label={t("Rename {{name}}", { name })}
      data-rename={name}
      onClick={(event) => {
        event.preventDefault();
        setEditing(name);
      }}
    >
      {t("Rename")}
    </Link>
  );

  const deleteForm = (name: string) => (
    <form method="post" className="inline-form" onSubmit={(event) => void remove(event, name)}>
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="name" value={name} />
      <button
        type="submit"
        className="button button-ghost button-small"
        aria-label={t("Delete {{name}}", { name })}
        disabled={busyName === name}
        data-delete
      >
        {t("Delete")}
      </button>
    </form>
  );

  return { editing, outcome, say, renameForm, renameLink, deleteForm };
}

/** Without JavaScript, a file's Delete asks on ?delete={name} first: this panel (none when nothing is asked). */
export function fileDeletePanel(kind: FileScreenKind, name: string | null | undefined, t: Translator["t"]) {
  if (!name) return null;
  return (
    <ConfirmPanel
      question={deleteQuestion(name, t)}
      confirmLabel={t("Delete")}
      action={kind.path}
      fields={{ intent: "delete", name }}
      cancelTo={kind.path}
    />
  );
}

/**
 * Calls `handle` once with each new answer a fetcher brings back. The Video Hub's action also answers its
 * generated clips' deletes (~/components/video-jobs/generated-videos.tsx), which these fetchers never post.
 */
function useAnswer(
  fetcher: { state: string; data?: FileAnswer | { intent: "delete-generated" } },
  handle: (answer: FileAnswer) => void,
) {
  const handled = useRef<unknown>(null);
  const latest = useRef(handle);
  latest.current = handle;
  useEffect(() => {
    const answer = fetcher.data;
    if (fetcher.state !== "idle" || !answer || handled.current === answer) return;
    handled.current = answer;
    if (answer.intent !== "delete-generated") latest.current(answer);
  }, [fetcher.state, fetcher.data]);
}
