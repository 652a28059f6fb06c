import { sql } from "kysely";
import { engineOf } from "../../../db/portable";
import { db } from "~/lib/db/db.server";
import { catchUpAllSearchIndex } from "./content-search-behind.server";

/**
 * Keeps SQLite's full-text index shallow (docs/decisions/0077-search-from-the-match.md, "Upkeep").
 * Every write transaction adds a small segment to FTS5's index and its automerge only joins segments
 * of the same size, so an index written a save at a time keeps many; a search checks a row once per
 * segment. FTS5's incremental 'merge' with a negative page count merges segments of every size
 * towards one, writing at most that many pages per run (a bounded, short write, run by the hourly
 * housekeeping). Before it, every piece whose index entry is behind its text is brought up to date
 * (content-search-behind.server.ts). PostgreSQL's GIN index needs nothing here: autovacuum folds its
 * pending entries in.
 */
export const SEARCH_UPKEEP_PAGES = 2000;

/** Everyone's pieces brought up to date, then one bounded merge of SQLite's search index; nothing on PostgreSQL. */
export async function tidySearchIndex(pages = SEARCH_UPKEEP_PAGES): Promise<void> {
  if (engineOf(db) === "postgres") return;
  await catchUpAllSearchIndex();
  await sql`insert into content_items_search(content_items_search, rank) values ('merge', ${-pages})`.execute(db);
}
