import { describe, expect, it } from "vitest";
import { startsWithEmoji, toastStack, TOASTS_AT_ONCE } from "~/components/shell/toast-peek";

describe("toast rules", () => {
  it("sees an emoji at the start of SPEC's texts, and none in plain ones", () => {
    for (const text of ["✅ Upload successful!", "⚠️ Title is required", "❌ Save failed", " 🎉 Done"])
      expect(startsWithEmoji(text), text).toBe(true);
    for (const text of ["Pro Plan Activated!", "Welcome back, Free user!", "3 files", "Saved ✅"])
      expect(startsWithEmoji(text), text).toBe(false);
  });

  it("keeps the newest three: a fourth sends the oldest away, a closed one frees its place", () => {
    const stack = toastStack(TOASTS_AT_ONCE);
    expect(stack.shown("a")).toEqual([]);
    expect(stack.shown("b")).toEqual([]);
    expect(stack.shown("c")).toEqual([]);
    expect(stack.shown("d")).toEqual(["a"]);
    stack.gone("c");
    expect(stack.shown("e")).toEqual([]);
    expect(stack.shown("f")).toEqual(["b"]);
    // An update of a shown toast is not a new one.
    expect(stack.shown("f")).toEqual([]);
  });
});
