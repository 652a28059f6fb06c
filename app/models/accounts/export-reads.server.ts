import type { Kysely } from "kysely";
import type { ContentVersionsTable } from "~/lib/db/work-tables";
import type { Database } from "~/lib/db/db-schema";
import { db } from "~/lib/db/db.server";
import { toMessage, type ConversationMessage } from "~/models/assistant/assistant-conversation.server";
import { MEDIA_COLUMNS, toFile, type MediaFile } from "~/models/media/media.server";

/**
 * What the exports read (app/services/accounts/account-export.server.ts writes the zip): lists of the
 * person's content, without bodies, and of every file they own, of any kind. Every query is scoped
 * by the user's id. Bodies and versions are read in batches as the zip reaches them (one query per
 * batch, app/lib/db/batched-reads.ts), so an export of many long pieces never holds them all.
 */
export interface ExportContentRow {
  id: string;
  title: string;
  pinned: boolean;
  created_at: string;
  updated_at: string;
}

/** A file as the media model reads it (with its provenance, dimensions and duration). */
export type ExportMediaRow = MediaFile;

/** A piece with its body, as the account export reads it in keyset batches. */
export interface ExportContentPiece extends ExportContentRow {
  body: string;
}

/**
 * The person's content with bodies, oldest first (a stable order for the archive), `size` rows per
 * query: each batch is the next range of the index content_items_user_created (user_id, created_at,
 * id), read only when the export reaches it, so the first byte goes at once and only one batch is
 * held, however many pieces there are (docs/decisions/0078). `reader`: the export's own connection
 * (openBulkReader in app/lib/db/db.server.ts), as for the versions and messages below.
 */
export async function* contentForExport(
  userId: string,
  size: number,
  reader: Kysely<Database> = db,
): AsyncGenerator<ExportContentPiece[]> {
  let after: { created_at: string; id: string } | null = null;
  for (;;) {
    const rows = await contentForExportQuery(userId, size, after, reader).execute();
    if (rows.length === 0) return;
    yield rows.map((row) => ({ ...row, pinned: Boolean(row.pinned) }));
    if (rows.length < size) return;
    after = rows[rows.length - 1]!;
  }
}

/** One batch of the export's pieces: the `size` after `after` (the first ones without it); its plan is tested. */
export function contentForExportQuery(
  userId: string,
  size: number,
  after: { created_at: string; id: string } | null,
  reader: Kysely<Database> = db,
) {
  let query = reader
    .selectFrom("content_items")
    .select(["id", "title", "pinned", "created_at", "updated_at", "body"])
    .where("user_id", "=", userId);
  if (after) {
    const { created_at, id } = after;
    query = query.where(({ eb, refTuple, tuple }) => eb(refTuple("created_at", "id"), ">", tuple(created_at, id)));
  }
  return query.orderBy("created_at").orderBy("id").limit(size);
}

/** Every file the person owns, of every kind, by kind then oldest first. */
export async function listMediaForExport(userId: string): Promise<ExportMediaRow[]> {
  const rows = await db
    .selectFrom("media_files")
    .select(MEDIA_COLUMNS)
    .where("user_id", "=", userId)
    .orderBy("kind")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toFile);
}

/** The files with these ids that the person owns (a project's attachments). */
export async function mediaForExportByIds(userId: string, ids: string[]): Promise<ExportMediaRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("media_files")
    .select(MEDIA_COLUMNS)
    .where("user_id", "=", userId)
    .where("id", "in", ids)
    .execute();
  return rows.map(toFile);
}

/**
 * How many versions each of the person's pieces has (pieces without any are absent). Read through the
 * person's pieces, so the versions' index by piece serves it (there is none by person).
 */
export async function versionCountsForExport(
  userId: string,
  reader: Kysely<Database> = db,
): Promise<Map<string, number>> {
  const rows = await reader
    .selectFrom("content_versions")
    .select((eb) => ["content_id", eb.fn.countAll<number>().as("n")])
    .where("content_id", "in", (eb) => eb.selectFrom("content_items").select("id").where("user_id", "=", userId))
    .where("user_id", "=", userId)
    .groupBy("content_id")
    .execute();
  return new Map(rows.map((row) => [row.content_id, Number(row.n)]));
}

export type ExportVersion = Pick<ContentVersionsTable, "title" | "body" | "reason" | "created_at">;

/** The versions of these pieces in one query: each piece's in the order they were kept. */
export async function versionsForExportOf(
  userId: string,
  contentIds: string[],
  reader: Kysely<Database> = db,
): Promise<Map<string, ExportVersion[]>> {
  const byPiece = new Map<string, ExportVersion[]>();
  if (contentIds.length === 0) return byPiece;
  const rows = await reader
    .selectFrom("content_versions")
    .select(["content_id", "title", "body", "reason", "created_at"])
    .where("user_id", "=", userId)
    .where("content_id", "in", contentIds)
    .orderBy("content_id")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  for (const { content_id, ...version } of rows) {
    const versions = byPiece.get(content_id);
    if (versions) versions.push(version);
    else byPiece.set(content_id, [version]);
  }
  return byPiece;
}

/** How many messages each of the person's conversations has (none: absent), through their conversations as above. */
export async function messageCountsForExport(
  userId: string,
  reader: Kysely<Database> = db,
): Promise<Map<string, number>> {
  const rows = await reader
    .selectFrom("assistant_messages")
    .select((eb) => ["conversation_id", eb.fn.countAll<number>().as("n")])
    .where("conversation_id", "in", (eb) =>
      eb.selectFrom("assistant_conversations").select("id").where("user_id", "=", userId),
    )
    .where("user_id", "=", userId)
    .groupBy("conversation_id")
    .execute();
  return new Map(rows.map((row) => [row.conversation_id, Number(row.n)]));
}

/** The messages of these conversations in one query: each conversation's oldest first. */
export async function messagesForExportOf(
  userId: string,
  conversationIds: string[],
  reader: Kysely<Database> = db,
): Promise<Map<string, ConversationMessage[]>> {
  const byConversation = new Map<string, ConversationMessage[]>();
  if (conversationIds.length === 0) return byConversation;
  const rows = await reader
    .selectFrom("assistant_messages")
    .select(["conversation_id", "id", "role", "text", "provider", "created_at"])
    .where("user_id", "=", userId)
    .where("conversation_id", "in", conversationIds)
    .orderBy("conversation_id")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  for (const { conversation_id, ...row } of rows) {
    const messages = byConversation.get(conversation_id);
    if (messages) messages.push(toMessage(row));
    else byConversation.set(conversation_id, [toMessage(row)]);
  }
  return byConversation;
}
