import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "~/lib/db/db-schema";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { monotonicIso, newId, nowIso } from "~/lib/db/ids.server";
import { forUpdate } from "~/lib/db/portable-sql.server";
import { translatorFor } from "~/lib/i18n/catalogues.server";
import { env } from "~/lib/settings/env.server";
import { firstIssue, isRecord } from "~/lib/screens/validation.server";
import { DEFAULT_LANGUAGE } from "~/common/i18n/languages";
import { msg } from "~/common/i18n/translate";
import {
  DELETED_TITLE,
  SHARE_MAX_VIEWS,
  shareLimitText,
  type ExpiryChoice,
  type SharedLink,
} from "~/common/sharing/share-link-view";
import { CONTENT_NOT_FOUND } from "~/models/content/content.server";
import { FILE_NOT_FOUND } from "~/models/media/library-files.server";
import { PROJECT_NOT_FOUND } from "~/models/projects/project.server";
import { SHARE_KINDS, targetExists, targetTitle, targetTitles, type ShareKind } from "./share-target.server";
import { sharingEnabled, SHARING_OFF } from "./share-open.server";
import { newShareToken, openShareToken, sealShareToken, shareTokenHash } from "./share-token.server";

/**
 * Share links (docs/decisions/0069, docs/api.md#share-links): a person makes a link to one of their
 * content pieces, library files or projects; anyone with the link may open it until it is revoked,
 * expires, runs out of views, loses its target, or its owner is disabled. Every call a person makes is
 * scoped by their id: another person's target or link is indistinguishable from none (404).
 */

/** A link as the API answers it: the same shape the screens read (app/common/sharing/share-link-view.ts). */
export type ShareJson = SharedLink;
export type ShareState = SharedLink["state"];

/** The expiry choices the Share dialog offers; 7 days is the default. */
export const SHARE_EXPIRY_CHOICES: readonly ExpiryChoice[] = [
  { label: msg("1 hour"), hours: 1 },
  { label: msg("1 day"), hours: 24 },
  { label: msg("7 days"), hours: 24 * 7 },
  { label: msg("30 days"), hours: 24 * 30 },
  { label: msg("Never"), hours: null },
];
export const SHARE_EXPIRY_DEFAULT_HOURS = 24 * 7;
export const SHARE_MAX_HOURS = 24 * 365;

export const SHARE_NOT_FOUND = "Share link not found";
const shareNotFound = () => new DomainError(404, SHARE_NOT_FOUND);

/** The 409's code past SHARES_MAX_PER_PERSON live links, for the screens to say it in their language. */
export const SHARE_LIMIT = "share_limit";
/** That 409, its detail in the English catalogue's words (the API's). */
const shareLimitReached = (max: number) =>
  new DomainError(409, shareLimitText(translatorFor(DEFAULT_LANGUAGE).t, max), { code: SHARE_LIMIT });

const HOURS_PROBLEM = `expires_in_hours must be a number of hours above 0 and at most ${SHARE_MAX_HOURS}, or null for never`;
const VIEWS_PROBLEM = `max_views must be a whole number from 1 to ${SHARE_MAX_VIEWS.toLocaleString("en-US")}, or null for no limit`;

export const shareInputSchema = z.object({
  kind: z.enum(SHARE_KINDS, { error: 'kind must be "content", "file" or "project"' }),
  id: z
    .string({ error: "id must be the id of the content piece, file or project" })
    .trim()
    .min(1, "id must be the id of the content piece, file or project")
    .max(200, "id must be the id of the content piece, file or project"),
  expires_in_hours: z
    .number({ error: HOURS_PROBLEM })
    .positive(HOURS_PROBLEM)
    .max(SHARE_MAX_HOURS, HOURS_PROBLEM)
    .nullable()
    .optional(),
  max_views: z
    .number({ error: VIEWS_PROBLEM })
    .int(VIEWS_PROBLEM)
    .min(1, VIEWS_PROBLEM)
    .max(SHARE_MAX_VIEWS, VIEWS_PROBLEM)
    .nullable()
    .optional(),
});
export type ShareInput = z.infer<typeof shareInputSchema>;

const NOT_FOUND_BY_KIND: Record<ShareKind, string> = {
  content: CONTENT_NOT_FOUND,
  file: FILE_NOT_FOUND,
  project: PROJECT_NOT_FOUND,
};

export const SHARE_COLUMNS = [
  "id",
  "kind",
  "target_id",
  "token_sealed",
  "expires_at",
  "max_views",
  "views",
  "created_at",
] as const;
export interface ShareRow {
  id: string;
  kind: ShareKind;
  target_id: string;
  token_sealed: string;
  expires_at: string | null;
  max_views: number | string | null;
  views: number | string;
  created_at: string;
}

function stateOf(row: ShareRow, targetGone: boolean, now: string): ShareState {
  if (targetGone) return "gone";
  if (row.expires_at !== null && row.expires_at <= now) return "expired";
  if (row.max_views !== null && Number(row.views) >= Number(row.max_views)) return "used_up";
  return "active";
}

function toJson(row: ShareRow, title: string | undefined, origin: string, now: string): ShareJson {
  const token = openShareToken(row.id, row.token_sealed);
  return {
    id: row.id,
    url: token ? `${origin}/s/${token}` : "",
    kind: row.kind,
    target_id: row.target_id,
    title: title ?? DELETED_TITLE,
    expires_at: row.expires_at,
    max_views: row.max_views === null ? null : Number(row.max_views),
    views: Number(row.views),
    created_at: row.created_at,
    state: stateOf(row, title === undefined, now),
  };
}

/**
 * Makes a link to one of the person's targets. 400 for bad input, 404 when the target is not theirs,
 * 403 with SHARING=off, 409 when they already have SHARES_MAX_PER_PERSON live links (docs/decisions/0090):
 * the count and the insert take turns per person (the person's row locked on PostgreSQL; SQLite's one
 * writer), so concurrent creates never pass the limit.
 */
export async function createShare(userId: string, input: unknown, origin: string): Promise<ShareJson> {
  if (!sharingEnabled()) throw new DomainError(403, SHARING_OFF);
  if (!isRecord(input)) throw new DomainError(400, "The body must be a JSON object");
  const parsed = shareInputSchema.safeParse(input);
  if (!parsed.success) throw new DomainError(400, firstIssue(parsed.error));
  const { kind, id: targetId, expires_in_hours: hours, max_views: maxViews } = parsed.data;
  const title = await targetTitle(userId, kind, targetId);
  if (title === undefined) throw new DomainError(404, NOT_FOUND_BY_KIND[kind]);
  const id = newId();
  const token = newShareToken();
  const createdAt = monotonicIso();
  const row = {
    id,
    kind,
    target_id: targetId,
    token_sealed: sealShareToken(id, token),
    expires_at: hours == null ? null : new Date(Date.parse(createdAt) + Math.round(hours * 3_600_000)).toISOString(),
    max_views: maxViews ?? null,
    views: 0,
    created_at: createdAt,
  } satisfies ShareRow;
  const max = env.sharesMaxPerPerson;
  await db.transaction().execute(async (trx) => {
    await forUpdate(trx.selectFrom("users").select("id").where("id", "=", userId), trx).executeTakeFirst();
    if ((await liveShareCountOf(trx, userId, nowIso())) >= max) throw shareLimitReached(max);
    await trx
      .insertInto("shares")
      .values({ ...row, user_id: userId, token_hash: shareTokenHash(token), revoked_at: null })
      .execute();
  });
  return toJson(row, title, origin, nowIso());
}

/**
 * How many of the person's links still open (not revoked, not expired, views left, target there): the
 * ones SHARES_MAX_PER_PERSON counts. Over links, not their owner: a disabled person's count the same.
 */
async function liveShareCountOf(database: Kysely<Database>, userId: string, now: string): Promise<number> {
  const { count } = await database
    .selectFrom("shares")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .where((eb) => eb.or([eb("max_views", "is", null), eb("views", "<", eb.ref("max_views"))]))
    .where(targetExists)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Rows of the person's links as the API answers them, their targets' titles read at once. */
export async function sharesOf(userId: string, rows: readonly ShareRow[], origin: string): Promise<ShareJson[]> {
  const titles = await targetTitles(userId, rows);
  const now = nowIso();
  return rows.map((row) => toJson(row, titles.get(`${row.kind}:${row.target_id}`), origin, now));
}

/** One of the person's links that is not revoked, or undefined (the account's question about a link on another page). */
export async function getShare(userId: string, shareId: string, origin: string): Promise<ShareJson | undefined> {
  const row = (await db
    .selectFrom("shares")
    .select(SHARE_COLUMNS)
    .where("id", "=", shareId)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .executeTakeFirst()) as ShareRow | undefined;
  return row ? (await sharesOf(userId, [row], origin))[0] : undefined;
}

async function sharesWhere(userId: string, origin: string, target?: { kind: ShareKind; targetId: string }) {
  let query = db
    .selectFrom("shares")
    .select(SHARE_COLUMNS)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null);
  if (target) query = query.where("kind", "=", target.kind).where("target_id", "=", target.targetId);
  const rows = (await query.orderBy("created_at", "desc").orderBy("id", "desc").execute()) as ShareRow[];
  return sharesOf(userId, rows, origin);
}

/**
 * The person's links, newest first; revoked ones are left out (they are over for good). Every one, for
 * the operator's `npm run admin -- shares`; the API and the account page them (./share-keyset.server.ts).
 */
export async function listShares(userId: string, origin: string): Promise<ShareJson[]> {
  return sharesWhere(userId, origin);
}

/** The person's links to one target, newest first (the Share dialog's "already shared"). */
export async function listSharesOfTarget(
  userId: string,
  kind: ShareKind,
  targetId: string,
  origin: string,
): Promise<ShareJson[]> {
  return sharesWhere(userId, origin, { kind, targetId });
}

/** Ends one of the person's links at once; 404 when it is not theirs or already revoked. */
export async function revokeShare(userId: string, shareId: string): Promise<void> {
  const revoked = await db
    .updateTable("shares")
    .set({ revoked_at: nowIso() })
    .where("id", "=", shareId)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .returning("id")
    .execute();
  if (revoked.length === 0) throw shareNotFound();
}

/** Ends every live link of the person (`npm run admin -- shares revoke`); how many it ended. */
export async function revokeAllShares(userId: string): Promise<number> {
  const result = await db
    .updateTable("shares")
    .set({ revoked_at: nowIso() })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
