/**
 * Unsaved editor text kept in this tab's sessionStorage, so a draft survives what would otherwise lose
 * it: a session that ends mid-edit (the API client sends the person to /login and back), a reload, a
 * crash of the tab's page. `base` is the version of the item the draft started from.
 */
export interface StashedDraft {
  title: string;
  body: string;
  base: string;
}

const keyOf = (id: string) => `studio:content-draft:${id}`;

export function stashDraft(id: string, draft: StashedDraft): void {
  try {
    sessionStorage.setItem(keyOf(id), JSON.stringify(draft));
  } catch {
    // storage full or disabled: the autosave remains the safety net
  }
}

export function readStashedDraft(id: string): StashedDraft | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(keyOf(id)) ?? "null");
    if (typeof value?.title === "string" && typeof value.body === "string" && typeof value.base === "string")
      return value;
  } catch {
    // unreadable: ignore it
  }
  return null;
}

export function clearStashedDraft(id: string): void {
  try {
    sessionStorage.removeItem(keyOf(id));
  } catch {
    // nothing to clear
  }
}
