import { describe, expect, it } from "vitest";
import {
  initialSaveState,
  isDirty,
  saveStates,
  type SaveAction,
  type SaveState,
} from "~/components/content/save-states";
import {
  CONFLICT_TEXT,
  DRAFT_RESTORED,
  SAVE_FAILED,
  SAVED_AUTO,
  SAVED_MANUALLY,
  TITLE_REQUIRED_NOTE,
  type EditableItem,
  type SaveFailure,
} from "~/components/content/content-texts";

// The content editor's save states (app/components/content/save-states.ts): a pure reducer, run here
// without React or a browser, action by action as the editor sends them.

const item: EditableItem = {
  id: "c1",
  title: "Kept",
  body: "Start",
  pinned: false,
  updated_at: "2026-01-01T00:00:00.000Z",
};
const newer = (body: string, updated_at: string): EditableItem => ({ ...item, body, updated_at });
const run = (state: SaveState, ...actions: SaveAction[]) => actions.reduce(saveStates, state);
const opened = () => run(initialSaveState({ item, saveFailure: null }), { type: "start-editing" });

describe("the editor's save states", () => {
  it("opens on the item, clean, with the edit's start at its version", () => {
    const state = initialSaveState({ item, saveFailure: null });
    expect(state).toMatchObject({
      saved: item,
      draft: { title: "Kept", body: "Start" },
      status: null,
      conflict: false,
      saving: false,
      autosaving: false,
      autosavedThisEdit: false,
      newerVersion: null,
      editStart: { title: "Kept", body: "Start", since: item.updated_at },
    });
    expect(isDirty(state, true)).toBe(false);
  });

  it("opens on a plain form's failed save: its values, its message (or the default), its conflict and the stored version", () => {
    const current = newer("Elsewhere", "2026-01-02T00:00:00.000Z");
    const failure: SaveFailure = {
      ok: false,
      intent: "save",
      message: "",
      conflict: true,
      fieldErrors: {},
      values: { title: "Mine", body: "Typed" },
      current,
    };
    const state = initialSaveState({ item, saveFailure: failure });
    expect(state.saved).toBe(current);
    expect(state.draft).toEqual({ title: "Mine", body: "Typed" });
    expect(state.status).toEqual({ tone: "error", text: SAVE_FAILED });
    expect(state.conflict).toBe(true);
    expect(state.editStart.since).toBe(item.updated_at);
    expect(initialSaveState({ item, saveFailure: { ...failure, message: "❌ Why" } }).status?.text).toBe("❌ Why");
  });

  it("is dirty only while editing and different from what is saved (a title's outer spaces do not count)", () => {
    const typed = run(opened(), { type: "edit", change: { body: "More" } });
    expect(isDirty(typed, true)).toBe(true);
    expect(isDirty(typed, false)).toBe(false);
    expect(isDirty(run(opened(), { type: "edit", change: { title: "  Kept " } }), true)).toBe(false);
  });

  it("an autosave: on its way, then saved (the edit has autosaved), and the status says so", () => {
    const typed = run(opened(), { type: "edit", change: { body: "More" } });
    const started = run(typed, { type: "save-started", kind: "auto" });
    expect(started).toMatchObject({ autosaving: true, saving: false });
    const stored = newer("More", "2026-01-01T00:00:03.000Z");
    const done = run(started, { type: "save-done", kind: "auto", item: stored }, { type: "save-ended", kind: "auto" });
    expect(done).toMatchObject({
      saved: stored,
      autosaving: false,
      saving: false,
      autosavedThisEdit: true,
      conflict: false,
      status: { tone: "success", text: SAVED_AUTO },
    });
    expect(isDirty(done, true)).toBe(false);
  });

  it("Save (and Save my version anyway): saving, then saved manually, without marking the edit autosaved", () => {
    for (const kind of ["manual", "force"] as const) {
      const started = run(opened(), { type: "edit", change: { body: "More" } }, { type: "save-started", kind });
      expect(started).toMatchObject({ saving: true, autosaving: false });
      const done = run(started, { type: "save-done", kind, item: newer("More", "t2") }, { type: "save-ended", kind });
      expect(done).toMatchObject({ saving: false, autosavedThisEdit: false, status: { text: SAVED_MANUALLY } });
    }
  });

  it("a save on the way out changes neither flag, and counts as an autosave once stored", () => {
    const started = run(opened(), { type: "save-started", kind: "leave" });
    expect(started).toMatchObject({ saving: false, autosaving: false });
    expect(run(started, { type: "save-done", kind: "leave", item }).autosavedThisEdit).toBe(true);
  });

  it("any save's end clears saving; only an autosave's clears autosaving", () => {
    const both = run(opened(), { type: "save-started", kind: "auto" }, { type: "save-started", kind: "manual" });
    expect(run(both, { type: "save-ended", kind: "leave" })).toMatchObject({ saving: false, autosaving: true });
    expect(run(both, { type: "save-ended", kind: "auto" })).toMatchObject({ saving: false, autosaving: false });
  });

  it("a missing title says so, and the note goes once there is a title (other statuses stay)", () => {
    const missing = run(opened(), { type: "edit", change: { title: " " } }, { type: "title-missing" });
    expect(missing.status).toEqual({ tone: "error", text: TITLE_REQUIRED_NOTE });
    expect(run(missing, { type: "edit", change: { body: "x" } }).status?.text).toBe(TITLE_REQUIRED_NOTE);
    expect(run(missing, { type: "edit", change: { title: "Back" } }).status).toBeNull();
    const failed = run(opened(), { type: "save-failed", text: SAVE_FAILED });
    expect(run(failed, { type: "edit", change: { title: "Back" } }).status?.text).toBe(SAVE_FAILED);
  });

  it("a failed save keeps the draft and says why", () => {
    const failed = run(
      opened(),
      { type: "edit", change: { body: "More" } },
      { type: "save-failed", text: `${SAVE_FAILED} Storage is full.` },
    );
    expect(failed.draft.body).toBe("More");
    expect(failed.status).toEqual({ tone: "error", text: `${SAVE_FAILED} Storage is full.` });
  });

  it("a conflict keeps the draft, and Cancel then shows the version saved elsewhere", () => {
    const elsewhere = newer("Elsewhere", "t9");
    const conflict = run(
      opened(),
      { type: "edit", change: { body: "Mine" } },
      { type: "save-conflict", current: elsewhere },
    );
    expect(conflict).toMatchObject({ conflict: true, newerVersion: elsewhere, draft: { body: "Mine" } });
    expect(conflict.status).toEqual({ tone: "error", text: CONFLICT_TEXT });
    const cancelled = run(conflict, { type: "cancel" });
    expect(cancelled).toMatchObject({
      saved: elsewhere,
      newerVersion: null,
      draft: { title: "Kept", body: "Elsewhere" },
      conflict: false,
      status: null,
      autosavedThisEdit: false,
    });
  });

  it("Cancel without a conflict drops the draft for what is saved", () => {
    const typed = run(opened(), { type: "edit", change: { body: "Mine" } }, { type: "save-failed", text: SAVE_FAILED });
    expect(run(typed, { type: "cancel" })).toMatchObject({ saved: item, draft: { body: "Start" }, status: null });
  });

  it("a new edit starts from what is saved now, and names that version as its start", () => {
    const stored = newer("Autosaved", "t2");
    const state = run(opened(), { type: "save-done", kind: "auto", item: stored }, { type: "start-editing" });
    expect(state.editStart).toEqual({ title: "Kept", body: "Autosaved", since: "t2" });
    expect(state).toMatchObject({
      autosavedThisEdit: false,
      status: null,
      conflict: false,
      draft: { body: "Autosaved" },
    });
  });

  it("Cancel's go back: settle drops typing, a restore is adopted; without a kept version the start is the draft again", () => {
    const autosaved = run(
      opened(),
      { type: "edit", change: { body: "Typed" } },
      { type: "save-done", kind: "auto", item: newer("Typed", "t2") },
      { type: "edit", change: { body: "Typed more" } },
    );
    expect(run(autosaved, { type: "settle" }).draft.body).toBe("Typed");
    const restored = newer("Start", "t3");
    expect(run(autosaved, { type: "adopt-restored", item: restored })).toMatchObject({
      saved: restored,
      draft: { body: "Start" },
      autosavedThisEdit: false,
      status: null,
      conflict: false,
      newerVersion: null,
    });
    const reverting = run(autosaved, { type: "revert" });
    expect(reverting.draft).toEqual({ title: "Kept", body: "Start" });
    expect(reverting.autosavedThisEdit).toBe(true);
    expect(run(reverting, { type: "reverted" }).autosavedThisEdit).toBe(false);
    expect(run(autosaved, { type: "restore-failed", text: SAVE_FAILED }).status).toEqual({
      tone: "error",
      text: SAVE_FAILED,
    });
  });

  it("a kept draft comes back: as it was when the item is unchanged, as a conflict when it changed, not at all when it is what is saved", () => {
    const state = opened();
    const same = run(state, { type: "stash-found", stash: { title: "Kept", body: "Start", base: "old" } });
    expect(same).toBe(state);
    const back = run(state, { type: "stash-found", stash: { title: "Kept", body: "Unsaved", base: item.updated_at } });
    expect(back).toMatchObject({
      draft: { body: "Unsaved" },
      conflict: false,
      status: { tone: "info", text: DRAFT_RESTORED },
    });
    const changed = run(state, { type: "stash-found", stash: { title: "Kept", body: "Unsaved", base: "older" } });
    expect(changed).toMatchObject({
      draft: { body: "Unsaved" },
      conflict: true,
      status: { tone: "error", text: `${DRAFT_RESTORED} ${CONFLICT_TEXT}` },
    });
  });

  it("never changes the state it is given", () => {
    const state = Object.freeze(opened());
    expect(() => run(state, { type: "edit", change: { body: "x" } }, { type: "cancel" })).not.toThrow();
    expect(state.draft.body).toBe("Start");
  });
});
