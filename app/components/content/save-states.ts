import {
  CONFLICT_TEXT,
  DRAFT_RESTORED,
  SAVE_FAILED,
  SAVED_AUTO,
  SAVED_MANUALLY,
  TITLE_REQUIRED_NOTE,
  type EditableItem,
  type SaveFailure,
} from "./content-texts";
import type { SaveKind } from "./content-save-request";

export type EditorStatus = { tone: "success" | "error" | "info"; text: string } | null;
export type SaveOutcome = "saved" | "clean" | "invalid" | "conflict" | "failed";
export interface Draft {
  title: string;
  body: string;
}

/**
 * The content editor's save states, as data: what is saved, the draft, the status line, the conflict,
 * the saves on their way. `saveStates` is the one way they change (a pure reducer: no React, no
 * requests); useSaveQueue sends it what happened.
 */
export interface SaveState {
  saved: EditableItem;
  draft: Draft;
  status: EditorStatus;
  conflict: boolean;
  /** A Save (or "Save my version anyway") is on its way. */
  saving: boolean;
  /** An autosave is on its way (the status line says "Saving…"). */
  autosaving: boolean;
  /**
   * The text this edit began with and its version (`since`, sent with autosaves so the history keeps
   * it), and whether an autosave has stored anything since (Cancel then asks).
   */
  editStart: Draft & { since: string };
  autosavedThisEdit: boolean;
  /** After a conflict: the version saved elsewhere, which Cancel switches to. */
  newerVersion: EditableItem | null;
}

export type SaveAction =
  /** Edit began: from what is saved now. */
  | { type: "start-editing" }
  /** Typing in the title or the body. */
  | { type: "edit"; change: Partial<Draft> }
  /** A kept draft found on the way into the editor (app/browser/draft-stash.ts). */
  | { type: "stash-found"; stash: Draft & { base: string } }
  | { type: "save-started"; kind: SaveKind }
  | { type: "title-missing" }
  | { type: "save-done"; kind: SaveKind; item: EditableItem }
  /** A 409: `current` is the version stored elsewhere (null when the answer did not carry it). */
  | { type: "save-conflict"; current: EditableItem | null }
  | { type: "save-failed"; text: string }
  | { type: "save-ended"; kind: SaveKind }
  /** Cancel: the draft goes, and after a conflict the version saved elsewhere is what is shown. */
  | { type: "cancel" }
  /** Cancel's "go back" without a kept version: the draft is the text the edit began with. */
  | { type: "revert" }
  /** The edit's start saved again by "go back". */
  | { type: "reverted" }
  /** Before the edit's start is restored: unsaved typing dropped. */
  | { type: "settle" }
  /** The restored version of the edit's start: what is saved now, and the draft. */
  | { type: "adopt-restored"; item: EditableItem }
  | { type: "restore-failed"; text: string };

export const sameAsSaved = (draft: Draft, saved: EditableItem) =>
  draft.title.trim() === saved.title && draft.body === saved.body;

const draftOf = ({ title, body }: Draft): Draft => ({ title, body });
const isManual = (kind: SaveKind) => kind === "manual" || kind === "force";

/** Changes not saved yet, while editing. */
export const isDirty = (state: SaveState, editing: boolean) => editing && !sameAsSaved(state.draft, state.saved);

/** The editor as it opens: the item, or after a plain form's failed save, its answer (values, message, conflict). */
export function initialSaveState({
  item,
  saveFailure,
}: {
  item: EditableItem;
  saveFailure: SaveFailure | null;
}): SaveState {
  return {
    saved: saveFailure?.current ?? item,
    draft: saveFailure?.values ?? draftOf(item),
    // The action's message is the text in docs/screens.md#error-messages, with the reason when it has one (a conflict, the storage quota).
    status: saveFailure ? { tone: "error", text: saveFailure.message || SAVE_FAILED } : null,
    conflict: saveFailure?.conflict ?? false,
    saving: false,
    autosaving: false,
    editStart: { ...draftOf(item), since: item.updated_at },
    autosavedThisEdit: false,
    newerVersion: null,
  };
}

export function saveStates(state: SaveState, action: SaveAction): SaveState {
  switch (action.type) {
    case "start-editing":
      return {
        ...state,
        editStart: { ...draftOf(state.saved), since: state.saved.updated_at },
        autosavedThisEdit: false,
        draft: draftOf(state.saved),
        status: null,
        conflict: false,
      };
    case "edit": {
      const draft = { ...state.draft, ...action.change };
      // "⚠️ Title is required" goes once there is a title.
      const titleNoteGoes = !!draft.title.trim() && state.status?.text === TITLE_REQUIRED_NOTE;
      return { ...state, draft, status: titleNoteGoes ? null : state.status };
    }
    case "stash-found": {
      const { stash } = action;
      if (sameAsSaved(stash, state.saved)) return state;
      // If the item changed since the draft began, saving it would overwrite that change unseen, so it
      // comes back as a conflict for the person to decide.
      if (stash.base === state.saved.updated_at)
        return { ...state, draft: draftOf(stash), status: { tone: "info", text: DRAFT_RESTORED } };
      return {
        ...state,
        draft: draftOf(stash),
        conflict: true,
        status: { tone: "error", text: `${DRAFT_RESTORED} ${CONFLICT_TEXT}` },
      };
    }
    case "save-started":
      if (isManual(action.kind)) return { ...state, saving: true };
      return action.kind === "auto" ? { ...state, autosaving: true } : state;
    case "title-missing":
      return { ...state, status: { tone: "error", text: TITLE_REQUIRED_NOTE } };
    case "save-done": {
      const manual = isManual(action.kind);
      return {
        ...state,
        saved: action.item,
        conflict: false,
        status: { tone: "success", text: manual ? SAVED_MANUALLY : SAVED_AUTO },
        autosavedThisEdit: manual ? state.autosavedThisEdit : true,
      };
    }
    case "save-conflict":
      return {
        ...state,
        newerVersion: action.current,
        conflict: true,
        status: { tone: "error", text: CONFLICT_TEXT },
      };
    case "save-failed":
    case "restore-failed":
      return { ...state, status: { tone: "error", text: action.text } };
    case "save-ended":
      return { ...state, saving: false, autosaving: action.kind === "auto" ? false : state.autosaving };
    case "cancel": {
      // After a conflict, Cancel drops this draft for the version saved elsewhere, not the stale one.
      const saved = state.newerVersion ?? state.saved;
      return {
        ...state,
        saved,
        newerVersion: null,
        draft: draftOf(saved),
        conflict: false,
        // What this edit said (a missing title, a failed save) is not about the view Cancel goes back to.
        status: null,
        autosavedThisEdit: false,
      };
    }
    case "revert":
      return { ...state, draft: draftOf(state.editStart) };
    case "reverted":
      return { ...state, autosavedThisEdit: false };
    case "settle":
      return { ...state, draft: draftOf(state.saved) };
    case "adopt-restored":
      return {
        ...state,
        newerVersion: null,
        saved: action.item,
        draft: draftOf(action.item),
        conflict: false,
        status: null,
        autosavedThisEdit: false,
      };
  }
}
