import type { ContentListItem } from "~/components/content/content-rows";

/**
 * The dashboard list's order while pins are on their way (optimistic UI): pinned first, then by last
 * change on the page, as the server orders it.
 */
/** Every item's rank by last change on the page, from the server's order and the pinned items' ranks. */
function recencyOf(items: ContentListItem[], pinnedRanks: number[]): Map<string, number> {
  const taken = new Set(pinnedRanks);
  const recency = new Map<string, number>();
  let pinned = 0;
  let next = 0;
  for (const item of items) {
    if (item.pinned) {
      recency.set(item.id, pinnedRanks[pinned++] ?? 0);
      continue;
    }
    while (taken.has(next)) next++;
    recency.set(item.id, next++);
  }
  return recency;
}

/** The items in the list's order with the pending pins applied: a pinned item moves up, an unpinned one to its place by last change. */
export function withPendingPins(items: ContentListItem[], pinnedRanks: number[], pins: Map<string, boolean>) {
  const recency = recencyOf(items, pinnedRanks);
  return items
    .map((item) => (pins.has(item.id) ? { ...item, pinned: pins.get(item.id)! } : item))
    .sort((a, b) => (a.pinned !== b.pinned ? (a.pinned ? -1 : 1) : recency.get(a.id)! - recency.get(b.id)!));
}
