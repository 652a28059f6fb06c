import { z } from "zod";
import type { AssistantMessagesTable } from "~/lib/db/work-tables";
import { withoutNul } from "~/lib/db/portable-sql.server";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { monotonicIso, newId } from "~/lib/db/ids.server";
import { firstIssue } from "~/lib/screens/validation.server";
import { displayText } from "~/common/media/media-names";
import { requireWithinQuota } from "~/models/media/storage-quota.server";
import { CONVERSATION_NOT_FOUND, UNTITLED_CONVERSATION } from "~/common/assistant/assistant-labels";
import { interpolate, msg } from "~/common/i18n/translate";

/**
 * The assistant's conversations (docs/decisions/0064): each person's own, every query scoped by their
 * id, so another person's conversation answers exactly as one that does not exist (404). Their text
 * (titles, questions, replies) counts toward the storage quota: migration 0019's triggers add it to the
 * person's text bytes in the statement that writes it, and each write checks the quota in the same
 * transaction (app/models/media/storage-quota.server.ts), so past it nothing is kept (413).
 */
export { CONVERSATION_NOT_FOUND, UNTITLED_CONVERSATION };
export const CONVERSATION_TITLE_MAX = 120;
/** A title made from the first question is cut to this many characters. */
export const TITLE_FROM_QUESTION_CHARS = 60;

export interface ConversationSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

export interface ConversationMessage {
  id: string;
  role: "user" | "assistant";
  text: string;
  /** Who answered a reply (null for questions). */
  provider: string | null;
  created_at: string;
}

export interface Conversation extends ConversationSummary {
  messages: ConversationMessage[];
}

export const conversationNotFound = () => new DomainError(404, CONVERSATION_NOT_FOUND);

/** A title's problems, as the API's detail (English) and the screens' rename form (translated). */
export const TITLE_REQUIRED = msg("Title is required");
export const TITLE_NOT_TEXT = msg("Title must be text");
export const TITLE_TOO_LONG = msg("Title must be at most {{max}} characters");

const titleSchema = z
  .string({
    error: (issue) => (issue.input === undefined || issue.input === null ? TITLE_REQUIRED : TITLE_NOT_TEXT),
  })
  // U+0000 (PostgreSQL refuses it), control and bidirectional-override characters (they would disguise the title) go.
  .overwrite((title) => displayText(withoutNul(title)))
  .trim()
  .min(1, TITLE_REQUIRED)
  .max(CONVERSATION_TITLE_MAX, interpolate(TITLE_TOO_LONG, { max: CONVERSATION_TITLE_MAX }));

export const conversationRenameSchema = z.object({ title: titleSchema });
export const conversationCreateSchema = z.object({ title: titleSchema.optional() });
/** The assistant calls' optional conversation_id: text when given. */
export const conversationRefSchema = z.object({
  conversation_id: z
    .string({ error: "conversation_id must be text" })
    .trim()
    .min(1, "conversation_id must not be empty")
    .max(100, CONVERSATION_NOT_FOUND)
    .nullish(),
});

/** Validates a conversations call's input: a bad one is 400 {detail} with the first problem. */
export function parseConversationInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw new DomainError(400, firstIssue(result.error));
  return result.data;
}

/** A title from the first question: one line, cut at a word near TITLE_FROM_QUESTION_CHARS. */
export function titleFromQuestion(question: string): string {
  const line = displayText(withoutNul(question)).replace(/\s+/g, " ").trim();
  if (line.length <= TITLE_FROM_QUESTION_CHARS) return line || UNTITLED_CONVERSATION;
  const cut = line.slice(0, TITLE_FROM_QUESTION_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > TITLE_FROM_QUESTION_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const SUMMARY = ["id", "title", "created_at", "updated_at"] as const;

/** The person's conversations, most recently updated first, a page at a time, and how many there are. */
export async function listConversations(
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ conversations: ConversationSummary[]; total: number }> {
  const [conversations, count] = await Promise.all([
    db
      .selectFrom("assistant_conversations")
      .select(SUMMARY)
      .where("user_id", "=", userId)
      .orderBy("updated_at", "desc")
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom("assistant_conversations")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { conversations, total: Number(count.n) };
}

/** A stored message as the API answers it (also the account export's, app/models/accounts/export-reads.server.ts). */
export const toMessage = (row: Omit<AssistantMessagesTable, "conversation_id" | "user_id">): ConversationMessage => ({
  id: row.id,
  role: row.role === "assistant" ? "assistant" : "user",
  text: row.text,
  provider: row.provider,
  created_at: row.created_at,
});

/** One of the person's conversations with its messages, oldest first; undefined when it is not theirs. */
export async function getConversation(userId: string, id: string): Promise<Conversation | undefined> {
  const conversation = await db
    .selectFrom("assistant_conversations")
    .select(SUMMARY)
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!conversation) return undefined;
  const messages = await db
    .selectFrom("assistant_messages")
    .select(["id", "role", "text", "provider", "created_at"])
    .where("conversation_id", "=", id)
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return { ...conversation, messages: messages.map(toMessage) };
}

export async function requireConversation(userId: string, id: string): Promise<Conversation> {
  const conversation = await getConversation(userId, id);
  if (!conversation) throw conversationNotFound();
  return conversation;
}

/** A new, empty conversation (titled UNTITLED_CONVERSATION unless named); its title counts toward the quota. */
export async function createConversation(userId: string, title?: string): Promise<Conversation> {
  const now = monotonicIso();
  const row = { id: newId(), user_id: userId, title: title || UNTITLED_CONVERSATION, created_at: now, updated_at: now };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("assistant_conversations").values(row).execute();
    await requireWithinQuota(trx, userId);
  });
  return { id: row.id, title: row.title, created_at: now, updated_at: now, messages: [] };
}

/** Renames the person's conversation; 404 when it is not theirs. */
export async function renameConversation(userId: string, id: string, title: string): Promise<ConversationSummary> {
  const updated = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("assistant_conversations")
      .set({ title, updated_at: monotonicIso() })
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .returning(SUMMARY)
      .executeTakeFirst();
    if (!row) throw conversationNotFound();
    await requireWithinQuota(trx, userId);
    return row;
  });
  return updated;
}

/** Deletes the person's conversation and its messages; false when it is not theirs. */
export async function deleteConversation(userId: string, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // The messages first, by statement, so their triggers give their bytes back on both engines.
    await trx
      .deleteFrom("assistant_messages")
      .where("conversation_id", "=", id)
      .where("user_id", "=", userId)
      .execute();
    const result = await trx
      .deleteFrom("assistant_conversations")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/**
 * Appends a question and its reply to the person's conversation (404 when it is not theirs, 413 past
 * the quota: then neither is kept). A conversation still untitled and empty takes its title from the question.
 */
export async function appendExchange(
  userId: string,
  conversationId: string,
  exchange: { question: string; reply: string; provider: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const conversation = await trx
      .selectFrom("assistant_conversations")
      .select(["title"])
      .where("id", "=", conversationId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!conversation) throw conversationNotFound();
    const asked = monotonicIso();
    const answered = monotonicIso(asked);
    const base = { conversation_id: conversationId, user_id: userId };
    const empty =
      conversation.title === UNTITLED_CONVERSATION &&
      !(await trx
        .selectFrom("assistant_messages")
        .select("id")
        .where("conversation_id", "=", conversationId)
        .limit(1)
        .executeTakeFirst());
    await trx
      .insertInto("assistant_messages")
      .values([
        { ...base, id: newId(), role: "user", text: withoutNul(exchange.question), provider: null, created_at: asked },
        {
          ...base,
          id: newId(),
          role: "assistant",
          text: withoutNul(exchange.reply),
          provider: exchange.provider,
          created_at: answered,
        },
      ])
      .execute();
    await trx
      .updateTable("assistant_conversations")
      .set(empty ? { updated_at: answered, title: titleFromQuestion(exchange.question) } : { updated_at: answered })
      .where("id", "=", conversationId)
      .where("user_id", "=", userId)
      .execute();
    await requireWithinQuota(trx, userId);
  });
}

/** Every conversation of the person (no messages), for the account export, oldest first. */
export function listConversationsForExport(userId: string): Promise<ConversationSummary[]> {
  return db
    .selectFrom("assistant_conversations")
    .select(SUMMARY)
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}
