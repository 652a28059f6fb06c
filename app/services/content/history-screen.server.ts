import { DomainError } from "~/lib/domain-error";
import type { Translator } from "~/common/i18n/translate";
import { getContent, type ContentItem } from "~/models/content/content.server";
import { getVersion, listVersions, restoreVersion, versionAtEditStart } from "~/models/content/content-version.server";
import { restoredText, type HistoryRow, type HistoryScreen, type OpenVersion } from "~/common/content/version-reasons";
import { changes } from "~/common/content/word-diff";
import { wordDiffOffThread } from "~/services/content/word-diff-worker.server";

/** Versions per page of the History screen (a piece keeps 50 by default: a few pages at most). */
export const HISTORY_PAGE_SIZE = 20;

const notFound = (error: unknown) => error instanceof DomainError && error.status === 404;

/**
 * The History screen's data: one page of versions (newest first) and, with `?version=`, that version's
 * word diff against the current text, computed here so the page needs no script (a large one in a worker
 * thread; docs/decisions/0073-history-screen-and-word-diff.md). null when the piece is not the person's.
 */
export async function loadHistory(
  userId: string,
  contentId: string,
  query: URLSearchParams,
): Promise<HistoryScreen | null> {
  const item = await getContent(userId, contentId);
  if (!item) return null;
  const wanted = Math.max(1, Math.floor(Number(query.get("page")) || 1));
  const range = (page: number) => ({ limit: HISTORY_PAGE_SIZE, offset: (page - 1) * HISTORY_PAGE_SIZE });
  let page = wanted;
  let listed = await listVersions(userId, contentId, range(page));
  // A page past the end (versions were pruned since the link was made) shows the last one.
  const lastPage = Math.max(1, Math.ceil(listed.total / HISTORY_PAGE_SIZE));
  if (page > lastPage) {
    page = lastPage;
    listed = await listVersions(userId, contentId, range(page));
  }
  const versionId = query.get("version");
  let open: OpenVersion | null = null;
  let versionMissing = false;
  if (versionId) {
    try {
      const version = await getVersion(userId, contentId, versionId);
      // Off the main thread when large (word-diff-worker.server.ts): other requests are answered meanwhile.
      const [title, body] = await Promise.all([
        wordDiffOffThread(version.title, item.title),
        wordDiffOffThread(version.body, item.body),
      ]);
      open = { ...row(version), title, body, changed: changes(title) || changes(body) };
    } catch (error) {
      if (!notFound(error)) throw error;
      versionMissing = true;
    }
  }
  return {
    item: { id: item.id, title: item.title, updated_at: item.updated_at },
    rows: listed.items.map(row),
    page,
    pageSize: HISTORY_PAGE_SIZE,
    total: listed.total,
    open,
    versionMissing,
  };
}

const row = (version: HistoryRow): HistoryRow => ({
  id: version.id,
  reason: version.reason,
  created_at: version.created_at,
  size_change: version.size_change,
});

/** Restore from the History screen: the toast's words (in the screen's language, `say`), or a 404 DomainError. */
export async function restoreFromHistory(
  userId: string,
  contentId: string,
  versionId: string,
  say?: Translator,
): Promise<string> {
  const version = await getVersion(userId, contentId, versionId);
  await restoreVersion(userId, contentId, version.id);
  return restoredText(version.created_at, say);
}

/**
 * The editor's Cancel after an autosave, "go back": restores the version kept when the edit began
 * (`editingSince`, the item's updated_at then), with the toast's words (in the screen's language,
 * `say`). undefined when no version is that old.
 */
export async function restoreEditStart(
  userId: string,
  contentId: string,
  editingSince: string,
  say?: Translator,
): Promise<{ item: ContentItem; message: string } | undefined> {
  const version = await versionAtEditStart(userId, contentId, editingSince);
  if (!version) return undefined;
  const item = await restoreVersion(userId, contentId, version.id);
  return { item, message: restoredText(version.created_at, say) };
}
