import { msg } from "~/common/i18n/translate";

/** The library screen's texts (the style of docs/screens.md#error-messages: short, what happened and what to do) and its action's answer. */
export const DELETE_CONFIRM = msg("Delete this file? It is removed from every project that uses it.");
export const DELETE_FAILED = msg("Failed to delete file.");
export const RENAME_FAILED = msg("Failed to rename file.");
export const ATTACH_FAILED = msg("Failed to attach file.");
/** The upload's failure texts (docs/screens.md#error-messages for voices: every upload says the same). */
export const UPLOAD_FAILED = msg("❌ Upload failed");
export const UPLOAD_ERROR = msg("❌ Upload error");

/** What a post to /library answers when it is not a redirect (a fetcher's post, or a failure). */
export interface LibraryAnswer {
  intent: "rename" | "delete" | "attach" | null;
  id?: string;
  ok: boolean;
  message: string;
  detail?: string;
}
