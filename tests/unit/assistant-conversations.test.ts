import { describe, expect, it, vi } from "vitest";
import { db } from "~/lib/db/db.server";
import {
  appendExchange,
  conversationRenameSchema,
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  parseConversationInput,
  renameConversation,
  titleFromQuestion,
  TITLE_FROM_QUESTION_CHARS,
  UNTITLED_CONVERSATION,
} from "~/models/assistant/assistant-conversation.server";
import { deletePersonRows } from "~/models/operators/operator.server";
import { QUOTA_EXCEEDED, storageUse } from "~/models/media/storage-quota.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

// A 1 MiB quota, parsed with the settings (before the app's modules are imported).
vi.hoisted(() => {
  process.env.USER_STORAGE_QUOTA_MB = "1";
});

const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const textBytes = async (userId: string) => (await storageUse(userId)).textBytes;

describe("a conversation's title from its first question", () => {
  it("is the question on one line, cut at a word with an ellipsis when long", () => {
    expect(titleFromQuestion("  How do I\n record   a memo?  ")).toBe("How do I record a memo?");
    const long = "word ".repeat(40);
    const title = titleFromQuestion(long);
    expect(title.endsWith("…")).toBe(true);
    expect(title.length).toBeLessThanOrEqual(TITLE_FROM_QUESTION_CHARS + 1);
    expect(title).not.toMatch(/\s…$/);
  });

  it("refuses an empty or too long rename as a 400", () => {
    for (const title of ["", "   ", "x".repeat(121), 5]) {
      expect(() => parseConversationInput(conversationRenameSchema, { title })).toThrow(
        expect.objectContaining({ status: 400 }),
      );
    }
    expect(parseConversationInput(conversationRenameSchema, { title: "  Plans " }).title).toBe("Plans");
  });
});

describeOnEachEngine("assistant conversations", () => {
  it("keeps questions and replies in order, titled by the first question, newest updated first", async () => {
    const alice = await newUserId();
    const first = await createConversation(alice);
    expect(first.title).toBe(UNTITLED_CONVERSATION);
    const second = await createConversation(alice, "Named");
    await appendExchange(alice, first.id, { question: "What is AI x AI?", reply: "A tool.", provider: "p1" });
    await appendExchange(alice, first.id, { question: "And Music?", reply: "Demos.", provider: "p1" });
    await appendExchange(alice, second.id, { question: "Keep my name", reply: "Kept.", provider: "p2" });

    const loaded = await getConversation(alice, first.id);
    expect(loaded?.title).toBe("What is AI x AI?");
    expect(loaded?.messages.map((m) => [m.role, m.text, m.provider])).toEqual([
      ["user", "What is AI x AI?", null],
      ["assistant", "A tool.", "p1"],
      ["user", "And Music?", null],
      ["assistant", "Demos.", "p1"],
    ]);
    expect((await getConversation(alice, second.id))?.title).toBe("Named");

    const { conversations, total } = await listConversations(alice, { limit: 10, offset: 0 });
    expect(total).toBe(2);
    expect(conversations.map((c) => c.id)).toEqual([second.id, first.id]);
    const page = await listConversations(alice, { limit: 1, offset: 1 });
    expect(page.conversations.map((c) => c.id)).toEqual([first.id]);
  });

  it("is its owner's alone: another person can neither read, rename, delete nor append to it", async () => {
    const [alice, bob] = [await newUserId(), await newUserId()];
    const mine = await createConversation(alice, "Mine");
    expect(await getConversation(bob, mine.id)).toBeUndefined();
    await expect(renameConversation(bob, mine.id, "Theirs")).rejects.toMatchObject({ status: 404 });
    expect(await deleteConversation(bob, mine.id)).toBe(false);
    await expect(appendExchange(bob, mine.id, { question: "q", reply: "r", provider: "p" })).rejects.toMatchObject({
      status: 404,
    });
    expect((await listConversations(bob, { limit: 10, offset: 0 })).total).toBe(0);
    expect((await getConversation(alice, mine.id))?.title).toBe("Mine");
  });

  it("counts its text toward the storage quota, gives it back when deleted, and refuses past the quota", async () => {
    const alice = await newUserId();
    const conversation = await createConversation(alice, "Quota");
    expect(await textBytes(alice)).toBe(bytes("Quota"));
    await appendExchange(alice, conversation.id, { question: "Grüße?", reply: "Hallo ✓", provider: "p" });
    expect(await textBytes(alice)).toBe(bytes("Quota") + bytes("Grüße?") + bytes("Hallo ✓"));
    await renameConversation(alice, conversation.id, "Longer title");
    expect(await textBytes(alice)).toBe(bytes("Longer title") + bytes("Grüße?") + bytes("Hallo ✓"));

    // A reply past the 1 MiB quota: refused (413), and neither the question nor the reply is kept.
    await expect(
      appendExchange(alice, conversation.id, { question: "Big?", reply: "x".repeat(1024 * 1024), provider: "p" }),
    ).rejects.toMatchObject({ status: 413, code: QUOTA_EXCEEDED });
    expect((await getConversation(alice, conversation.id))?.messages).toHaveLength(2);

    expect(await deleteConversation(alice, conversation.id)).toBe(true);
    expect(await textBytes(alice)).toBe(0);
    expect(await getConversation(alice, conversation.id)).toBeUndefined();
  });

  it("goes with its owner's account", async () => {
    const alice = await newUserId();
    const conversation = await createConversation(alice, "Gone");
    await appendExchange(alice, conversation.id, { question: "q", reply: "r", provider: "p" });
    await deletePersonRows(alice);
    const left = await db
      .selectFrom("assistant_messages")
      .select("id")
      .where("conversation_id", "=", conversation.id)
      .execute();
    expect(left).toEqual([]);
    expect(await db.selectFrom("assistant_conversations").select("id").where("user_id", "=", alice).execute()).toEqual(
      [],
    );
  });
});
