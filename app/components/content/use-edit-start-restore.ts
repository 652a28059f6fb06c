import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/components/shell/toasts";
import type { EditableItem } from "./content-texts";
import type { SaveOutcome } from "./save-states";

/** The content screen's action intent for Cancel's "go back" after an autosave. */
export const RESTORE_EDIT_START = "restore-edit-start";

/**
 * The restore intent's own answer, typed here rather than as `typeof clientAction`: the content action's
 * other intents answer `{ ok, intent: string }`, which a check of `intent` cannot tell from this one.
 */
type RestoreAnswer =
  | { ok: true; intent: typeof RESTORE_EDIT_START; item: EditableItem; message: string }
  | { ok: false; intent: string | null; found?: boolean };

interface Editor {
  settle: () => Promise<void>;
  adoptRestored: (item: EditableItem) => void;
  restoreFailed: () => void;
  revertEdit: () => Promise<SaveOutcome>;
  editingSince: () => string;
}

/**
 * Cancel's "go back" after an autosave: the screen's action restores the version kept when the edit
 * began (so the history shows the restore and updated_at moves on), through a fetcher. If no version
 * of the edit's start is kept, the text it began with is saved again instead.
 */
export function useEditStartRestore(viewUrl: string, editor: Editor, done: (outcome: SaveOutcome) => void) {
  const fetcher = useFetcher<RestoreAnswer>({ key: `restore-edit-start:${viewUrl}` });
  const waiting = useRef(false);
  const latest = useRef({ editor, done });
  latest.current = { editor, done };

  useEffect(() => {
    if (!waiting.current || fetcher.state !== "idle") return;
    waiting.current = false;
    const { editor: current, done: finish } = latest.current;
    const answer = fetcher.data;
    if (answer?.ok) {
      current.adoptRestored(answer.item);
      toast.success(answer.message);
      finish("saved");
    } else if (answer && answer.intent === RESTORE_EDIT_START && answer.found === false) {
      void current.revertEdit().then(finish);
    } else {
      current.restoreFailed();
      finish("failed");
    }
  }, [fetcher.state, fetcher.data]);

  const restore = async () => {
    await editor.settle();
    waiting.current = true;
    await fetcher.submit(
      { intent: RESTORE_EDIT_START, editing_since: editor.editingSince(), enhanced: "1" },
      { method: "post", action: viewUrl },
    );
  };
  return { restore, restoring: fetcher.state !== "idle" };
}
