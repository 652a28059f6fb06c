import { useEffect, useRef } from "react";
import { clearStashedDraft, readStashedDraft, stashDraft, type StashedDraft } from "~/browser/draft-stash";
import type { Draft } from "./save-states";

/**
 * The editor's unsaved text kept in this tab (sessionStorage, app/browser/draft-stash.ts) until it is
 * saved or dropped, so a session that ends mid-edit (the trip to /login and back), a reload or a crashed
 * page cannot lose it; and brought back on the way into the editor (`found`: the save states decide
 * whether it differs from what is saved, and whether it is a conflict).
 */
export function useDraftStash({
  id,
  editing,
  draft,
  dirty,
  base,
  found,
}: {
  id: string;
  editing: boolean;
  draft: Draft;
  /** Changes not saved yet, while editing: kept; else the stash is cleared. */
  dirty: boolean;
  /** The version of the item the draft started from. */
  base: string;
  /** A kept draft on the way into the editor (stable across renders). */
  found: (stash: StashedDraft) => void;
}) {
  // Back in the editor with a kept draft: bring it back (read before the effect below clears a clean
  // editor's stash).
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || !editing) return;
    restored.current = true;
    const stash = readStashedDraft(id);
    if (stash) found(stash);
  }, [editing, id, found]);

  useEffect(() => {
    if (dirty) stashDraft(id, { title: draft.title, body: draft.body, base });
    else clearStashedDraft(id);
  }, [draft, dirty, base, id]);
}
