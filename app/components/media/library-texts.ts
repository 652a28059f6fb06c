/** The library screen's texts (the style of docs/screens.md#error-messages: short, what happened and what to do) and its action's answer. */
export const DELETE_CONFIRM = "Delete this file? It is removed from every project that uses it.";
export const DELETE_FAILED = "Failed to delete file.";
export const RENAME_FAILED = "Failed to rename file.";
export const ATTACH_FAILED = "Failed to attach file.";

/** What a post to /library answers when it is not a redirect (a fetcher's post, or a failure). */
export interface LibraryAnswer {
  intent: "rename" | "delete" | "attach" | null;
  id?: string;
  ok: boolean;
  message: string;
  detail?: string;
}
