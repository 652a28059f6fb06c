import { describe, expect, it, vi } from "vitest";
import {
  answerLeave,
  blocksLeaving,
  leaveAnswerer,
  leavesWithoutAsking,
  type LeaveBlocker,
} from "~/components/content/leave-guard";
import type { SaveOutcome } from "~/components/content/save-states";

// The editor's leave question (docs/screens.md#content-view) without a browser: the pure decisions
// that useLeaveGuard wires to React Router's blocker and the app's dialog.

/** A blocked try to leave, as React Router's blocker is while it holds a navigation. */
function blockedTry() {
  const blocker = { state: "blocked" as const, proceed: vi.fn(), reset: vi.fn() };
  return blocker;
}

/** A question the test answers when it likes (the person's Leave or Cancel). */
function question() {
  const answers: ((leave: boolean) => void)[] = [];
  const ask = vi.fn(() => new Promise<boolean>((resolve) => answers.push(resolve)));
  return { ask, answer: (leave: boolean) => answers.shift()!(leave) };
}

const saving = (outcome: SaveOutcome) => vi.fn(async () => outcome);
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("which navigations wait for the leave question", () => {
  const here = { pathname: "/content/c1" };
  it("holds a navigation away with unsaved changes", () => {
    expect(blocksLeaving(true, here, { pathname: "/dashboard", search: "" })).toBe(true);
    expect(blocksLeaving(true, here, { pathname: "/content/c1", search: "" })).toBe(true);
    expect(blocksLeaving(true, here, { pathname: "/content/c1", search: "?edit=0" })).toBe(true);
  });
  it("lets it go without unsaved changes, or when it stays in this editor", () => {
    expect(blocksLeaving(false, here, { pathname: "/dashboard", search: "" })).toBe(false);
    expect(blocksLeaving(true, here, { pathname: "/content/c1", search: "?edit=1" })).toBe(false);
    expect(blocksLeaving(true, here, { pathname: "/content/c2", search: "?edit=1" })).toBe(true);
  });
});

describe("the answer to a try to leave", () => {
  it("leaves without asking when the save stored the changes or found none", async () => {
    expect(leavesWithoutAsking("saved")).toBe(true);
    expect(leavesWithoutAsking("clean")).toBe(true);
    for (const outcome of ["failed", "conflict", "invalid"] as const) expect(leavesWithoutAsking(outcome)).toBe(false);
    const blocker = blockedTry();
    const { ask } = question();
    expect(await answerLeave(saving("saved"), ask, () => blocker)).toBe("left");
    expect(ask).not.toHaveBeenCalled();
    expect(blocker.proceed).toHaveBeenCalledOnce();
  });

  it("asks when the save failed: Leave goes", async () => {
    const blocker = blockedTry();
    const { ask, answer } = question();
    const answered = answerLeave(saving("failed"), ask, () => blocker);
    await settled();
    expect(ask).toHaveBeenCalledOnce();
    answer(true);
    expect(await answered).toBe("left");
    expect(blocker.proceed).toHaveBeenCalledOnce();
    expect(blocker.reset).not.toHaveBeenCalled();
  });

  it("asks when the save failed: Cancel stays", async () => {
    const blocker = blockedTry();
    const { ask, answer } = question();
    const answered = answerLeave(saving("conflict"), ask, () => blocker);
    await settled();
    answer(false);
    expect(await answered).toBe("stayed");
    expect(blocker.reset).toHaveBeenCalledOnce();
    expect(blocker.proceed).not.toHaveBeenCalled();
  });

  it("does nothing when the try is no longer blocked, after the save or after the question", async () => {
    let latest: LeaveBlocker = { state: "unblocked" };
    const { ask } = question();
    expect(await answerLeave(saving("failed"), ask, () => latest)).toBe("moot");
    expect(ask).not.toHaveBeenCalled();

    const blocker = blockedTry();
    latest = blocker;
    const asked = question();
    const answered = answerLeave(saving("failed"), asked.ask, () => latest);
    await settled();
    latest = { state: "proceeding" };
    asked.answer(true);
    expect(await answered).toBe("moot");
    expect(blocker.proceed).not.toHaveBeenCalled();
  });
});

describe("tries to leave, one question at a time", () => {
  it("ignores renders that are not a blocked try", () => {
    const { ask } = question();
    const answerer = leaveAnswerer(ask, () => ({ state: "unblocked" }));
    expect(answerer.onTry("unblocked", saving("failed"))).toBeNull();
    expect(answerer.onTry("proceeding", saving("failed"))).toBeNull();
  });

  it("a second try while the question is open is that question: its answer goes to the latest try", async () => {
    const first = blockedTry();
    const second = blockedTry();
    let latest: LeaveBlocker = first;
    const { ask, answer } = question();
    const answerer = leaveAnswerer(ask, () => latest);
    const answered = answerer.onTry("blocked", saving("failed"));
    await settled();
    latest = second;
    expect(answerer.onTry("blocked", saving("failed"))).toBeNull();
    answer(true);
    expect(await answered).toBe("left");
    expect(ask).toHaveBeenCalledOnce();
    expect(second.proceed).toHaveBeenCalledOnce();
    expect(first.proceed).not.toHaveBeenCalled();
  });

  it("a second try right after Cancel asks again, and Leave then goes", async () => {
    const first = blockedTry();
    let latest: LeaveBlocker = first;
    const { ask, answer } = question();
    const answerer = leaveAnswerer(ask, () => latest);
    const save = saving("failed");

    const firstAnswer = answerer.onTry("blocked", save);
    await settled();
    answer(false); // Cancel
    expect(await firstAnswer).toBe("stayed");
    expect(first.reset).toHaveBeenCalledOnce();

    // Back at once: the blocker is "blocked" again (the screen may never have rendered "unblocked"),
    // at a new location, so the hook's effect calls onTry again.
    const second = blockedTry();
    latest = second;
    const secondAnswer = answerer.onTry("blocked", save);
    expect(secondAnswer).not.toBeNull();
    await settled();
    expect(ask).toHaveBeenCalledTimes(2);
    expect(save).toHaveBeenCalledTimes(2);
    answer(true); // Leave
    expect(await secondAnswer).toBe("left");
    expect(second.proceed).toHaveBeenCalledOnce();
  });

  it("answers again after a try that left or was moot", async () => {
    const blocker = blockedTry();
    const { ask } = question();
    const answerer = leaveAnswerer(ask, () => blocker);
    expect(await answerer.onTry("blocked", saving("clean"))).toBe("left");
    expect(await answerer.onTry("blocked", saving("saved"))).toBe("left");
    expect(blocker.proceed).toHaveBeenCalledTimes(2);
  });
});
