/** docs/screens.md#screens-and-routes, #states-and-transitions, #error-messages and #constants-and-limits texts and timing of the content screen (shared by its action and its editor). */
export const LOAD_FAILED = "⚠️ Failed to load content";
export const SAVED_AUTO = "💾 Saved";
export const SAVED_MANUALLY = "✅ Saved manually";
export const SAVE_FAILED = "❌ Save failed";
export const TITLE_REQUIRED_NOTE = "⚠️ Title is required";
export const CONFLICT_TEXT =
  "⚠️ This content was changed somewhere else (another tab or device) since you opened it. Your text is kept here but was not saved.";
export const SAVE_AGAIN_TEXT = "Save again to replace it with your version.";
export const DRAFT_RESTORED = "↩️ Your unsaved changes were restored.";
export const LEAVE_UNSAVED = "Your changes could not be saved. Leave anyway and lose them?";
export const AUTOSAVE_MS = 3000;
/** The editor's status line while a save runs, and while there are changes no save has taken yet. */
export const SAVING_STATUS = "Saving…";
export const UNSAVED_STATUS = "Unsaved changes";
/** What Cancel does: it drops what is not saved; after an autosave it asks about what is. */
export const CANCEL_DROPS = "Cancel leaves without saving.";
export const CANCEL_ASKS = "Autosave has saved part of this edit: Cancel asks whether to keep it.";
export const CANCEL_QUESTION =
  "Autosave already saved changes from this edit. Keep them, or go back to the text this edit began with?";

/** One content item as the screen's loader and GET /api/content/{id} answer it. */
export interface EditableItem {
  id: string;
  title: string;
  body: string;
  pinned: boolean;
  updated_at: string;
}

export interface EditorLimits {
  title: number;
  body: number;
}

export type ContentFieldErrors = Partial<Record<"title" | "body", string>>;

/** The screen action's answer to a save that did not happen (a plain form without JavaScript). */
export interface SaveFailure {
  ok: false;
  intent: "save";
  message: string;
  conflict: boolean;
  fieldErrors: ContentFieldErrors;
  values: { title: string; body: string };
  /** The stored version after a conflict: saving the form again replaces it on purpose. */
  current: EditableItem | null;
}
