import { diffWords } from "diff";

/** One run of a word diff: words both texts share, or words only the newer (added) or older (removed) has. */
export interface DiffPart {
  kind: "same" | "added" | "removed";
  text: string;
}

/**
 * A longer diff gives up after this long: a 100,000-character body rewritten from scratch would hold the
 * request for seconds. The answer is then "all removed, all added", which is still true.
 */
const DIFF_TIMEOUT_MS = 500;

/**
 * The word-level difference from `before` to `after` (docs/decisions/0073-history-screen-and-word-diff.md).
 * The parts are plain strings: the screen writes them as text, never as markup.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  if (before === after) return before ? [{ kind: "same", text: before }] : [];
  const changes = diffWords(before, after, { timeout: DIFF_TIMEOUT_MS });
  if (!changes) {
    const whole: DiffPart[] = [];
    if (before) whole.push({ kind: "removed", text: before });
    if (after) whole.push({ kind: "added", text: after });
    return whole;
  }
  return changes
    .filter((change) => change.value !== "")
    .map((change) => ({
      kind: change.added ? "added" : change.removed ? "removed" : "same",
      text: change.value,
    }));
}

/** Whether a diff changes anything. */
export const changes = (parts: readonly DiffPart[]): boolean => parts.some((part) => part.kind !== "same");
