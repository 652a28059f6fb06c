import { detailText } from "~/browser/api-client";
import { msg, type Translator } from "~/common/i18n/translate";

/** docs/screens.md#screens-and-routes, #states-and-transitions, #error-messages and #constants-and-limits texts and timing of the content screen (shared by its action and its editor). */
export const LOAD_FAILED = msg("⚠️ Failed to load content");
export const SAVED_AUTO = msg("💾 Saved");
export const SAVED_MANUALLY = msg("✅ Saved manually");
export const SAVE_FAILED = msg("❌ Save failed");
export const TITLE_REQUIRED_NOTE = msg("⚠️ Title is required");
export const CONFLICT_TEXT = msg(
  "⚠️ This content was changed somewhere else (another tab or device) since you opened it. Your text is kept here but was not saved.",
);
export const SAVE_AGAIN_TEXT = msg("Save again to replace it with your version.");
export const DRAFT_RESTORED = msg("↩️ Your unsaved changes were restored.");
export const LEAVE_UNSAVED = msg("Your changes could not be saved. Leave anyway and lose them?");
export const AUTOSAVE_MS = 3000;
/** The editor's status line while a save runs, and while there are changes no save has taken yet. */
export const SAVING_STATUS = msg("Saving…");
export const UNSAVED_STATUS = msg("Unsaved changes");
/** What Cancel does: it drops what is not saved; after an autosave it asks about what is. */
export const CANCEL_DROPS = msg("Cancel leaves without saving.");
export const CANCEL_ASKS = msg("Autosave has saved part of this edit: Cancel asks whether to keep it.");
export const CANCEL_QUESTION = msg(
  "Autosave already saved changes from this edit. Keep them, or go back to the text this edit began with?",
);

/**
 * The sentences a status text may begin with before another one (a conflict after a restored draft,
 * the reason after "❌ Save failed", "Save again…" after a conflict): status texts stay English in the
 * editor's state and in the action's answer, and are said in the screen's language when shown.
 */
const LEADING_SENTENCES = [DRAFT_RESTORED, SAVE_FAILED, CONFLICT_TEXT];

/** A status text in the screen's language, sentence by sentence (an unknown one, e.g. a reason, as it came). */
export function sayStatus(t: Translator["t"], text: string): string {
  const whole = t(text);
  if (whole !== text) return whole;
  for (const first of LEADING_SENTENCES) {
    if (text.startsWith(`${first} `)) return `${t(first)} ${sayStatus(t, text.slice(first.length + 1))}`;
  }
  // A reason the server gave (the storage quota with its size, a "Request failed (413)" without one).
  return detailText(t, text);
}

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
