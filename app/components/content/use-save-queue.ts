import { useCallback, useEffect, useRef, useState } from "react";
import { useBlocker } from "react-router";
import { leavingForLogin } from "~/browser/api-client";
import { confirmInApp } from "~/browser/app-dialogs";
import { clearStashedDraft, readStashedDraft, stashDraft } from "~/browser/draft-stash";
import {
  AUTOSAVE_MS,
  CONFLICT_TEXT,
  DRAFT_RESTORED,
  LEAVE_UNSAVED,
  SAVE_FAILED,
  SAVED_AUTO,
  SAVED_MANUALLY,
  TITLE_REQUIRED_NOTE,
  type EditableItem,
  type SaveFailure,
} from "./content-texts";
import { sendSave, type SaveKind } from "./content-save-request";

export type EditorStatus = { tone: "success" | "error" | "info"; text: string } | null;
export type SaveOutcome = "saved" | "clean" | "invalid" | "conflict" | "failed";
export interface Draft {
  title: string;
  body: string;
}

const sameAsSaved = (draft: Draft, saved: EditableItem) =>
  draft.title.trim() === saved.title && draft.body === saved.body;

/**
 * The content editor's state and its saves: every save carries the version it was based on, and saves
 * run one after another (so an older autosave never overwrites a newer save). Autosave 3 s after the
 * last change; unsaved text kept in the tab until saved or dropped; a save when the page or the editor
 * is left. After a conflict the version stored elsewhere (carried by the 409) is what Cancel shows.
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
  const [saved, setSavedState] = useState<EditableItem>(saveFailure?.current ?? item);
  const [draft, setDraftState] = useState<Draft>(saveFailure?.values ?? { title: item.title, body: item.body });
  const [status, setStatus] = useState<EditorStatus>(
    // The action's message is the text in docs/screens.md#error-messages, with the reason when it has one (a conflict, the storage quota).
    saveFailure ? { tone: "error", text: saveFailure.message || SAVE_FAILED } : null,
  );
  const [conflict, setConflict] = useState(saveFailure?.conflict ?? false);
  const [saving, setSaving] = useState(false);
  /** An autosave is on its way (the status line says "Saving…"). */
  const [autosaving, setAutosaving] = useState(false);
  /**
   * The text this edit began with and its version (`since`, sent with autosaves so the history keeps
   * it), and whether an autosave has stored anything since (Cancel then asks).
   */
  const editStart = useRef({ title: item.title, body: item.body, since: item.updated_at });
  const [autosavedThisEdit, setAutosavedThisEdit] = useState(false);

  // Refs give the save queue and the page-leave handlers the latest values.
  const savedRef = useRef(saved);
  const draftRef = useRef(draft);
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const savesInFlight = useRef(0);
  /** After a conflict: the version saved elsewhere, which Cancel switches to. */
  const newerVersion = useRef<EditableItem | null>(null);
  const setSaved = (next: EditableItem) => {
    savedRef.current = next;
    setSavedState(next);
  };
  const setDraft = useCallback((next: Draft) => {
    draftRef.current = next;
    setDraftState(next);
  }, []);
  const dirty = editing && !sameAsSaved(draft, saved);

  const save = useCallback(
    (kind: SaveKind): Promise<SaveOutcome> => {
      const run = async (): Promise<SaveOutcome> => {
        const current = draftRef.current;
        const base = savedRef.current;
        const manual = kind === "manual" || kind === "force";
        if (!manual && sameAsSaved(current, base)) return "clean";
        if (!current.title.trim()) {
          setStatus({ tone: "error", text: TITLE_REQUIRED_NOTE });
          return "invalid";
        }
        if (manual) setSaving(true);
        if (kind === "auto") setAutosaving(true);
        savesInFlight.current++;
        try {
          const payload: Record<string, unknown> = { title: current.title, body: current.body };
          // A leave save racing our own save in flight would be refused as stale by that save's new version.
          const racingOwnSave = kind === "leave" && savesInFlight.current > 1;
          if (kind !== "force" && !racingOwnSave) payload.updated_at = base.updated_at;
          // Every save of this edit names its start, so the history keeps that state (Cancel goes back to it).
          payload.editing_since = editStart.current.since;
          const reply = await sendSave(item.id, kind, payload);
          if (reply.ok) {
            savedRef.current = reply.item;
            setSavedState(reply.item);
            setConflict(false);
            setStatus({ tone: "success", text: manual ? SAVED_MANUALLY : SAVED_AUTO });
            if (!manual) setAutosavedThisEdit(true);
            return "saved";
          }
          if (reply.status === 409) {
            newerVersion.current = reply.current;
            setConflict(true);
            setStatus({ tone: "error", text: CONFLICT_TEXT });
            return "conflict";
          }
          // A refusal with a reason the person can act on (413: the storage quota) says it after the text in docs/screens.md#error-messages.
          setStatus({
            tone: "error",
            text: reply.status === 413 && reply.detail ? `${SAVE_FAILED} ${reply.detail}` : SAVE_FAILED,
          });
          return "failed";
        } catch {
          setStatus({ tone: "error", text: SAVE_FAILED });
          return "failed";
        } finally {
          savesInFlight.current--;
          setSaving(false);
          if (kind === "auto") setAutosaving(false);
        }
      };
      // Saves run one after another, except the one sent while the page is being left: it cannot wait.
      if (kind === "leave") return run();
      const next = queue.current.then(run, run);
      queue.current = next.catch(() => undefined);
      return next;
    },
    [item.id],
  );

  // Back in the editor with a kept draft: bring it back (read before the effect below clears a clean
  // editor's stash). If the item changed since the draft began, saving it would overwrite that change
  // unseen, so it comes back as a conflict for the person to decide.
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || !editing) return;
    restored.current = true;
    const stash = readStashedDraft(item.id);
    if (!stash || sameAsSaved(stash, savedRef.current)) return;
    setDraft({ title: stash.title, body: stash.body });
    if (stash.base === savedRef.current.updated_at) {
      setStatus({ tone: "info", text: DRAFT_RESTORED });
    } else {
      setConflict(true);
      setStatus({ tone: "error", text: `${DRAFT_RESTORED} ${CONFLICT_TEXT}` });
    }
  }, [editing, item.id, setDraft]);

  // Unsaved text is also kept in this tab (sessionStorage) until it is saved or dropped, so a session
  // that ends mid-edit (the trip to /login and back), a reload or a crashed page cannot lose it.
  useEffect(() => {
    if (dirty) stashDraft(item.id, { ...draft, base: saved.updated_at });
    else clearStashedDraft(item.id);
  }, [draft, dirty, saved.updated_at, item.id]);

  // Autosave 3 s after the last change while editing (paused after a conflict until the person decides).
  useEffect(() => {
    if (!dirty || conflict) return;
    const timer = setTimeout(() => void save("auto"), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [draft, dirty, conflict, save]);

  // Leaving the page (closing, reloading, hiding the tab) with unsaved changes: save them and let the browser warn.
  useEffect(() => {
    const isDirty = () => editingRef.current && !sameAsSaved(draftRef.current, savedRef.current);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // On the way to /login (the session ended) the draft is kept in the tab and comes back: no prompt.
      if (!isDirty() || leavingForLogin()) return;
      void save("leave");
      event.preventDefault();
    };
    const onHidden = () => {
      if (document.visibilityState === "hidden" && isDirty()) void save("leave");
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("visibilitychange", onHidden);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("visibilitychange", onHidden);
    };
  }, [save]);

  // Leaving edit mode in the app with unsaved changes (another screen, the browser's Back): save first;
  // if that fails, ask. Cancel is the explicit way to drop them (it resets the draft before it navigates).
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!editingRef.current || sameAsSaved(draftRef.current, savedRef.current)) return false;
    const staysInEditor =
      nextLocation.pathname === currentLocation.pathname &&
      new URLSearchParams(nextLocation.search).get("edit") === "1";
    return !staysInEditor;
  });
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;
  /** A try to leave is being answered (the save, then maybe the question); a newer try takes that answer. */
  const answeringLeave = useRef(false);
  // Keyed on the location too: blocker states come in a transition, so Cancel and a quick Back may render as one.
  useEffect(() => {
    if (blocker.state !== "blocked" || answeringLeave.current) return;
    answeringLeave.current = true;
    void save("auto")
      .then(async (outcome) => {
        if (blockerRef.current.state !== "blocked") return;
        // The save failed: the app's own question, in the words of docs/screens.md#content-view.
        const leave =
          outcome === "saved" ||
          outcome === "clean" ||
          (await confirmInApp({ message: LEAVE_UNSAVED, confirmLabel: "Leave", danger: true }));
        const current = blockerRef.current; // the latest try: a Back while it asked is the same question
        if (current.state !== "blocked") return;
        if (leave) current.proceed();
        else current.reset();
      })
      .finally(() => (answeringLeave.current = false));
  }, [blocker.state, blocker.location, save]);

  const startEditing = () => {
    editStart.current = {
      title: savedRef.current.title,
      body: savedRef.current.body,
      since: savedRef.current.updated_at,
    };
    setAutosavedThisEdit(false);
    setDraft({ title: savedRef.current.title, body: savedRef.current.body });
    setStatus(null);
    setConflict(false);
  };
  const cancelEditing = () => {
    // After a conflict, Cancel drops this draft for the version saved elsewhere, not the stale one.
    if (newerVersion.current) {
      setSaved(newerVersion.current);
      newerVersion.current = null;
    }
    setDraft({ title: savedRef.current.title, body: savedRef.current.body });
    setConflict(false);
    // What this edit said (a missing title, a failed save) is not about the view Cancel goes back to.
    setStatus(null);
    setAutosavedThisEdit(false);
  };
  /**
   * Cancel's other choice after an autosave, when no version from the edit's start is kept (the
   * storage quota left it out): the text the edit began with, saved again.
   */
  const revertEdit = async (): Promise<SaveOutcome> => {
    setDraft({ title: editStart.current.title, body: editStart.current.body });
    const outcome = await save("manual");
    if (outcome === "saved") setAutosavedThisEdit(false);
    return outcome;
  };
  /** Before the edit's start is restored: drop unsaved typing (no autosave starts) and wait for saves on their way. */
  const settle = async (): Promise<void> => {
    setDraft({ title: savedRef.current.title, body: savedRef.current.body });
    await queue.current;
  };
  /** The restored version of the edit's start: what is saved now, and the draft. */
  const adoptRestored = (restored: EditableItem) => {
    newerVersion.current = null;
    setSaved(restored);
    setDraft({ title: restored.title, body: restored.body });
    setConflict(false);
    setStatus(null);
    setAutosavedThisEdit(false);
  };
  const restoreFailed = (text = SAVE_FAILED) => setStatus({ tone: "error", text });
  const editDraft = (change: Partial<Draft>) => {
    const next = { ...draftRef.current, ...change };
    setDraft(next);
    // "⚠️ Title is required" goes once there is a title.
    if (next.title.trim()) setStatus((current) => (current?.text === TITLE_REQUIRED_NOTE ? null : current));
  };

  return {
    saved,
    draft,
    status,
    conflict,
    saving,
    autosaving,
    dirty,
    autosavedThisEdit,
    save,
    startEditing,
    cancelEditing,
    revertEdit,
    settle,
    adoptRestored,
    restoreFailed,
    editingSince: () => editStart.current.since,
    editDraft,
  };
}
