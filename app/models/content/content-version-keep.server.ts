import type { Kysely } from "kysely";
import { compileOnce } from "~/lib/db/compiled-query.server";
import type { ContentVersionsTable } from "~/lib/db/work-tables";
import type { Database } from "~/lib/db/db-schema";
import { env } from "~/lib/settings/env.server";
import { newId } from "~/lib/db/ids.server";
import { textBytesOf } from "./content-input.server";

/**
 * Which states of a text piece its history keeps, and keeping them (docs/decisions/0072). A version
 * is a state a write stored: its created_at is the piece's updated_at of that write, so
 * `created_at == updated_at` names a state. app/models/content/content.server.ts's updateContent asks
 * versionsToKeep what its write keeps and, only when that is something, writes the piece and keeps
 * them in one transaction (keepVersions). Reading, listing and restoring are content-version.server.ts's.
 */
export type VersionReason = ContentVersionsTable["reason"];
export const VERSION_REASONS: readonly VersionReason[] = ["save", "autosave", "restore"];
/** Autosaves keep at most one version of a piece this often. */
export const AUTOSAVE_VERSION_EVERY_MS = 5 * 60_000;

/** A state to keep: the piece's text and the updated_at the write gave it. */
export interface KeptState {
  title: string;
  body: string;
  created_at: string;
  reason: VersionReason;
}

/** What the piece's history already holds, as versionsToKeep needs it. */
export interface HistoryFacts {
  /** How many versions the piece has. */
  versions: number;
  /** The newest autosave version's created_at, or null. */
  lastAutosaveAt: string | null;
  /** Whether a version of the stored state (created_at == the piece's updated_at) is kept. */
  storedIsKept: boolean;
}

/**
 * updateContent's read: the person's piece and, in the same statement, its history's facts
 * (correlated subqueries on the index content_versions_content), so a write that keeps nothing costs
 * no query more than before.
 */
export const contentForWrite = compileOnce((database: Kysely<Database>, p: { id: string; userId: string }) =>
  database
    .selectFrom("content_items as c")
    .select(["c.id", "c.title", "c.body", "c.pinned", "c.updated_at"])
    .select((eb) => [
      eb
        .selectFrom("content_versions as v")
        .select((inner) => inner.fn.countAll<number | string>().as("n"))
        .whereRef("v.content_id", "=", "c.id")
        .as("versions"),
      eb
        .selectFrom("content_versions as v")
        .select((inner) => inner.fn.max("v.created_at").as("t"))
        .whereRef("v.content_id", "=", "c.id")
        .where("v.reason", "=", "autosave")
        .as("last_autosave_at"),
      eb
        .selectFrom("content_versions as v")
        .select((inner) => inner.fn.countAll<number | string>().as("n"))
        .whereRef("v.content_id", "=", "c.id")
        .whereRef("v.created_at", "=", "c.updated_at")
        .as("stored_kept"),
    ])
    .where("c.id", "=", p.id)
    .where("c.user_id", "=", p.userId),
);

export function historyFactsOf(row: {
  versions: number | string | null;
  last_autosave_at: string | null;
  stored_kept: number | string | null;
}): HistoryFacts {
  return {
    versions: Number(row.versions ?? 0),
    lastAutosaveAt: row.last_autosave_at ?? null,
    storedIsKept: Number(row.stored_kept ?? 0) > 0,
  };
}

interface State {
  title: string;
  body: string;
  updated_at: string;
}

/**
 * What a write that replaces `stored` with `next` keeps, oldest first:
 * - the stored state, when the piece has no version yet (the created state is never lost; "save"), or
 *   when it is the state the editor began with (`editingSince`) and not kept yet ("autosave");
 * - the new state: always for a save or a restore; for an autosave only when the piece has no autosave
 *   version from the last AUTOSAVE_VERSION_EVERY_MS.
 */
export function versionsToKeep(
  stored: State,
  next: State,
  facts: HistoryFacts,
  rule: { reason: VersionReason; editingSince?: string },
  now = Date.now(),
): KeptState[] {
  const kept: KeptState[] = [];
  const keepStored = (reason: VersionReason) =>
    kept.push({ title: stored.title, body: stored.body, created_at: stored.updated_at, reason });
  if (facts.versions === 0) keepStored("save");
  else if (
    rule.editingSince !== undefined &&
    Date.parse(rule.editingSince) === Date.parse(stored.updated_at) &&
    !facts.storedIsKept
  )
    keepStored("autosave");
  const throttled =
    rule.reason === "autosave" &&
    facts.lastAutosaveAt !== null &&
    now - Date.parse(facts.lastAutosaveAt) < AUTOSAVE_VERSION_EVERY_MS;
  if (!throttled) kept.push({ title: next.title, body: next.body, created_at: next.updated_at, reason: rule.reason });
  return kept;
}

/** One version's insert, compiled once: an autosave that keeps one runs it. */
const versionInsert = compileOnce(
  (
    database: Kysely<Database>,
    p: {
      id: string;
      contentId: string;
      userId: string;
      title: string;
      body: string;
      createdAt: string;
      reason: string;
    },
  ) =>
    database.insertInto("content_versions").values({
      id: p.id,
      content_id: p.contentId,
      user_id: p.userId,
      title: p.title,
      body: p.body,
      created_at: p.createdAt,
      reason: p.reason as VersionReason,
    }),
);

/**
 * Keeps `states` of the person's piece, inside the transaction that wrote it (after the write and
 * any quota check, so the order of locks stays the quota's: the written row, then the person's).
 * A version counts toward the storage quota; one that would pass it is left out rather than refusing
 * the person's save (docs/decisions/0072). `roomLeft`: roomLeftLocked's `left`, read once in that
 * transaction for the quota check and this (docs/decisions/0080). `versionsBefore`: the piece's
 * count of versions as updateContent read it; its compare-and-set write proves no other write kept
 * one since, so the history is pruned to CONTENT_VERSIONS_MAX only when it can have passed it.
 */
export async function keepVersions(
  trx: Kysely<Database>,
  userId: string,
  contentId: string,
  states: readonly KeptState[],
  roomLeft: number,
  versionsBefore: number,
): Promise<number> {
  let room = roomLeft;
  let kept = 0;
  for (const state of states) {
    const bytes = textBytesOf(state.title, state.body);
    if (bytes > room) continue;
    await versionInsert.execute(trx, {
      id: newId(),
      contentId,
      userId,
      title: state.title,
      body: state.body,
      createdAt: state.created_at,
      reason: state.reason,
    });
    room -= bytes;
    kept += 1;
  }
  if (kept > 0 && versionsBefore + kept > env.contentVersionsMax) await pruneVersions(trx, contentId);
  return kept;
}

/** Past CONTENT_VERSIONS_MAX, the oldest autosave versions go first, then the oldest others. */
export async function pruneVersions(trx: Kysely<Database>, contentId: string, max = env.contentVersionsMax) {
  const count = await trx
    .selectFrom("content_versions")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("content_id", "=", contentId)
    .executeTakeFirstOrThrow();
  const excess = Number(count.n) - max;
  if (excess <= 0) return;
  const doomed = await trx
    .selectFrom("content_versions")
    .select("id")
    .where("content_id", "=", contentId)
    .orderBy((eb) => eb.case().when("reason", "=", "autosave").then(0).else(1).end())
    .orderBy("created_at")
    .orderBy("id")
    .limit(excess)
    .execute();
  await trx
    .deleteFrom("content_versions")
    .where(
      "id",
      "in",
      doomed.map((row) => row.id),
    )
    .execute();
}
