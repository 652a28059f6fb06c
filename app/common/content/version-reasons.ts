import { formatDateTime, formatSize } from "~/common/i18n/formats";
import { createTranslator, msg, type Translator } from "~/common/i18n/translate";
import type { DiffPart } from "./word-diff";

/** Why a version was kept, as the History screen says it (docs/screens.md#history; shown with t()). */
export type VersionReasonName = "save" | "autosave" | "restore";
export const REASON_LABELS: Record<VersionReasonName, string> = {
  save: msg("Saved"),
  autosave: msg("Autosaved"),
  restore: msg("Restored"),
};

/**
 * A version's time, the same on the server and in the browser (UTC, in the screen's language), to the
 * second: two saves a moment apart must not read alike. English: "Jan 5, 2026, 1:04:05 PM UTC".
 */
export const versionTime = (iso: string, language = "en"): string => formatDateTime(language, iso, "dateTimeSeconds");

/** "+120 B", "−40 B" (a minus sign, not a hyphen), or "—" for the oldest version or no change; the number in the language. */
export function sizeChangeLabel(change: number | null, language = "en"): string {
  if (!change) return "—";
  return `${change > 0 ? "+" : "−"}${formatSize(language, Math.abs(change))}`;
}

export const RESTORED_VERSION = msg("Restored the version from {{time}}.");
const ENGLISH = createTranslator("en", {});

/** The toast after a restore, in the translator's language (English without one). */
export const restoredText = (createdAt: string, { t, language }: Translator = ENGLISH): string =>
  t(RESTORED_VERSION, { time: versionTime(createdAt, language) });

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
