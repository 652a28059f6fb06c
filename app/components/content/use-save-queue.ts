import { useCallback, useEffect, useReducer, useRef } from "react";
import type { StashedDraft } from "~/browser/draft-stash";
import { AUTOSAVE_MS, SAVE_FAILED, type EditableItem, type SaveFailure } from "./content-texts";
import { sendSave, type SaveKind } from "./content-save-request";
import { useLeaveGuard } from "./leave-guard";
import {
  initialSaveState,
  isDirty,
  sameAsSaved,
  saveStates,
  type Draft,
  type SaveAction,
  type SaveOutcome,
} from "./save-states";
import { useDraftStash } from "./use-draft-stash";

/**
 * The content editor's state and its saves: every save carries the version it was based on, and saves
 * run one after another (so an older autosave never overwrites a newer save). Autosave 3 s after the
 * last change; unsaved text kept in the tab until saved or dropped (useDraftStash); a save when the
 * page or the editor is left (useLeaveGuard). After a conflict the version stored elsewhere (carried by
 * the 409) is what Cancel shows. The states and their transitions are save-states.ts.
 */
export function useSaveQueue({
  item,
  editing,
  saveFailure,
}: {
  item: EditableItem;
  editing: boolean;
  saveFailure: SaveFailure | null;
}) {
  const [state, dispatch] = useReducer(saveStates, { item, saveFailure }, initialSaveState);
  // The latest state, ahead of the render: the save queue and the page-leave handlers read it.
  const latest = useRef(state);
  const act = useCallback((action: SaveAction) => {
    latest.current = saveStates(latest.current, action);
    dispatch(action);
  }, []);
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const hasUnsaved = useCallback(() => isDirty(latest.current, editingRef.current), []);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const savesInFlight = useRef(0);
  const dirty = isDirty(state, editing);

  const save = useCallback(
    (kind: SaveKind): Promise<SaveOutcome> => {
      const run = async (): Promise<SaveOutcome> => {
        const { draft: current, saved: base, editStart } = latest.current;
        const manual = kind === "manual" || kind === "force";
        if (!manual && sameAsSaved(current, base)) return "clean";
        if (!current.title.trim()) {
          act({ type: "title-missing" });
          return "invalid";
        }
        act({ type: "save-started", kind });
        savesInFlight.current++;
        try {
          const payload: Record<string, unknown> = { title: current.title, body: current.body };
          // A leave save racing our own save in flight would be refused as stale by that save's new version.
          const racingOwnSave = kind === "leave" && savesInFlight.current > 1;
          if (kind !== "force" && !racingOwnSave) payload.updated_at = base.updated_at;
          // Every save of this edit names its start, so the history keeps that state (Cancel goes back to it).
          payload.editing_since = editStart.since;
          const reply = await sendSave(item.id, kind, payload);
          if (reply.ok) {
            act({ type: "save-done", kind, item: reply.item });
            return "saved";
          }
          if (reply.status === 409) {
            act({ type: "save-conflict", current: reply.current });
            return "conflict";
          }
          // A refusal with a reason the person can act on (413: the storage quota) says it after the text in docs/screens.md#error-messages.
          const text = reply.status === 413 && reply.detail ? `${SAVE_FAILED} ${reply.detail}` : SAVE_FAILED;
          act({ type: "save-failed", text });
          return "failed";
        } catch {
          act({ type: "save-failed", text: SAVE_FAILED });
          return "failed";
        } finally {
          savesInFlight.current--;
          act({ type: "save-ended", kind });
        }
      };
      // Saves run one after another, except the one sent while the page is being left: it cannot wait.
      if (kind === "leave") return run();
      const next = queue.current.then(run, run);
      queue.current = next.catch(() => undefined);
      return next;
    },
    [item.id, act],
  );

  const stashFound = useCallback((stash: StashedDraft) => act({ type: "stash-found", stash }), [act]);
  useDraftStash({
    id: item.id,
    editing,
    draft: state.draft,
    dirty,
    base: state.saved.updated_at,
    found: stashFound,
  });

  // Autosave 3 s after the last change while editing (paused after a conflict until the person decides).
  useEffect(() => {
    if (!dirty || state.conflict) return;
    const timer = setTimeout(() => void save("auto"), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [state.draft, dirty, state.conflict, save]);

  useLeaveGuard(hasUnsaved, save);

  /**
   * Cancel's other choice after an autosave, when no version from the edit's start is kept (the
   * storage quota left it out): the text the edit began with, saved again.
   */
  const revertEdit = async (): Promise<SaveOutcome> => {
    act({ type: "revert" });
    const outcome = await save("manual");
    if (outcome === "saved") act({ type: "reverted" });
    return outcome;
  };
  /** Before the edit's start is restored: drop unsaved typing (no autosave starts) and wait for saves on their way. */
  const settle = async (): Promise<void> => {
    act({ type: "settle" });
    await queue.current;
  };

  return {
    saved: state.saved,
    draft: state.draft,
    status: state.status,
    conflict: state.conflict,
    saving: state.saving,
    autosaving: state.autosaving,
    dirty,
    autosavedThisEdit: state.autosavedThisEdit,
    save,
    startEditing: () => act({ type: "start-editing" }),
    cancelEditing: () => act({ type: "cancel" }),
    revertEdit,
    settle,
    /** The restored version of the edit's start: what is saved now, and the draft. */
    adoptRestored: (restored: EditableItem) => act({ type: "adopt-restored", item: restored }),
    restoreFailed: (text = SAVE_FAILED) => act({ type: "restore-failed", text }),
    editingSince: () => latest.current.editStart.since,
    editDraft: (change: Partial<Draft>) => act({ type: "edit", change }),
  };
}
