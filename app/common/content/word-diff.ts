import { diffWords, type Change } from "diff";

/** One run of a word diff: words both texts share, or words only the newer (added) or older (removed) has. */
export interface DiffPart {
  kind: "same" | "added" | "removed";
  text: string;
}

/**
 * A longer diff gives up after this long: a 100,000-character body rewritten from scratch would hold the
 * request for seconds. The answer is then "all removed, all added", which is still true.
 */
export const DIFF_TIMEOUT_MS = 500;

/** The `diff` package's diffWords as wordDiffWith calls it: undefined when it gave up after `timeout` ms. */
export type DiffWords = (before: string, after: string, options: { timeout: number }) => Change[] | undefined;

/**
 * wordDiff with the diff function and the timeout given: pure and self-contained (no imports, no
 * module-level names), because a worker thread runs its own source (Function.prototype.toString;
 * app/services/content/word-diff-worker.server.ts) with the package's diffWords of its own.
 */
export function wordDiffWith(diff: DiffWords, before: string, after: string, timeoutMs: number): DiffPart[] {
  if (before === after) return before ? [{ kind: "same", text: before }] : [];
  const found = diff(before, after, { timeout: timeoutMs });
  if (!found) {
    const whole: DiffPart[] = [];
    if (before) whole.push({ kind: "removed", text: before });
    if (after) whole.push({ kind: "added", text: after });
    return whole;
  }
  return found
    .filter((change) => change.value !== "")
    .map((change) => ({
      kind: change.added ? "added" : change.removed ? "removed" : "same",
      text: change.value,
    }));
}

/**
 * The word-level difference from `before` to `after` (docs/decisions/0073-history-screen-and-word-diff.md).
 * The parts are plain strings: the screen writes them as text, never as markup.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  return wordDiffWith(diffWords, before, after, DIFF_TIMEOUT_MS);
}

/** The answer of a diff that gave up (or was not worked): the whole version removed, the whole current text added. */
export const wholeDiff = (before: string, after: string): DiffPart[] => wordDiffWith(() => undefined, before, after, 0);

/** Whether a diff changes anything. */
export const changes = (parts: readonly DiffPart[]): boolean => parts.some((part) => part.kind !== "same");
