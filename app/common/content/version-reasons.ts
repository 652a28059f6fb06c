import { formatBytes } from "~/common/bytes";
import type { DiffPart } from "./word-diff";

/** Why a version was kept, as the History screen says it (docs/screens.md#history). */
export type VersionReasonName = "save" | "autosave" | "restore";
export const REASON_LABELS: Record<VersionReasonName, string> = {
  save: "Saved",
  autosave: "Autosaved",
  restore: "Restored",
};

/**
 * A version's time, the same on the server and in the browser (UTC, English), to the second: two
 * saves a moment apart must not read alike.
 */
export const versionTime = (iso: string): string =>
  `${new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" })} UTC`;

/** "+120 B", "−40 B" (a minus sign, not a hyphen), or "—" for the oldest version or no change. */
export function sizeChangeLabel(change: number | null): string {
  if (!change) return "—";
  return `${change > 0 ? "+" : "−"}${formatBytes(Math.abs(change))}`;
}

/** The toast after a restore. */
export const restoredText = (createdAt: string): string => `Restored the version from ${versionTime(createdAt)}.`;

/** What the History screen's loader answers (app/services/content/history-screen.server.ts). */
export interface HistoryRow {
  id: string;
  reason: VersionReasonName;
  created_at: string;
  size_change: number | null;
}

/** The opened version, as words against the current text (title and body). */
export interface OpenVersion extends HistoryRow {
  title: DiffPart[];
  body: DiffPart[];
  changed: boolean;
}

export interface HistoryScreen {
  item: { id: string; title: string; updated_at: string };
  rows: HistoryRow[];
  page: number;
  pageSize: number;
  total: number;
  open: OpenVersion | null;
  /** `?version=` named a version that is not (or no longer) kept. */
  versionMissing: boolean;
}
