import { expect, it } from "vitest";
import { appendExchange, createConversation } from "~/models/assistant-conversation.server";
import { createContent, deleteContent, saveContent } from "~/models/content.server";
import {
  contentBodiesForExport,
  messageCountsForExport,
  messagesForExportOf,
  versionCountsForExport,
  versionsForExportOf,
} from "~/models/export.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

// The account export reads bodies and versions a batch per query (docs/decisions/0078): scoped to the
// person, each piece's versions in the order they were kept, a piece deleted meanwhile absent.
describeOnEachEngine("export reads", () => {
  it("reads a batch of bodies in one query, only the person's, none for a deleted piece", async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const one = await createContent(alice, { title: "One", body: "Grüße 日本語" });
    const two = await createContent(alice, { title: "Two", body: "" });
    const gone = await createContent(alice, { title: "Gone", body: "bye" });
    const theirs = await createContent(bob, { title: "Theirs", body: "not yours" });
    await deleteContent(alice, gone.id);
    const bodies = await contentBodiesForExport(alice, [one.id, two.id, gone.id, theirs.id]);
    expect(Object.fromEntries(bodies)).toEqual({ [one.id]: "Grüße 日本語", [two.id]: "" });
    expect((await contentBodiesForExport(alice, [])).size).toBe(0);
  });

  it("counts each piece's versions and reads several pieces' versions in one query, each in kept order", async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const a = await createContent(alice, { title: "A" });
    await saveContent(alice, a.id, { title: "A", body: "a1" });
    await saveContent(alice, a.id, { title: "A", body: "a2" });
    const b = await createContent(alice, { title: "B" });
    await saveContent(alice, b.id, { title: "B2", body: "b1" });
    const plain = await createContent(alice, { title: "Never saved" });

    const counts = await versionCountsForExport(alice);
    expect(counts.get(a.id)).toBeGreaterThanOrEqual(3);
    expect(counts.get(b.id)).toBeGreaterThanOrEqual(2);
    expect(counts.has(plain.id)).toBe(false);
    expect((await versionCountsForExport(bob)).size).toBe(0);

    const versions = await versionsForExportOf(alice, [a.id, b.id, plain.id]);
    expect(versions.get(a.id)!.map((v) => v.body)).toEqual(["", "a1", "a2"]);
    expect(versions.get(b.id)!.map((v) => `${v.title}:${v.body}`)).toEqual(["B:", "B2:b1"]);
    expect(Object.keys(versions.get(a.id)![0]!)).toEqual(["title", "body", "reason", "created_at"]);
    expect(versions.has(plain.id)).toBe(false);
    expect(counts.get(a.id)).toBe(versions.get(a.id)!.length);
    expect((await versionsForExportOf(bob, [a.id, b.id])).size).toBe(0);
  });

  it("counts each conversation's messages and reads several conversations' messages in one query", async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const first = await createConversation(alice, "First");
    await appendExchange(alice, first.id, { question: "Q1", reply: "R1", provider: "stub" });
    await appendExchange(alice, first.id, { question: "Q2", reply: "R2", provider: "stub" });
    const second = await createConversation(alice, "Second");
    await appendExchange(alice, second.id, { question: "Ça?", reply: "Oui", provider: "stub" });
    const empty = await createConversation(alice, "Empty");

    const counts = await messageCountsForExport(alice);
    expect(Object.fromEntries(counts)).toEqual({ [first.id]: 4, [second.id]: 2 });
    expect((await messageCountsForExport(bob)).size).toBe(0);
    const messages = await messagesForExportOf(alice, [first.id, second.id, empty.id]);
    expect(messages.get(first.id)!.map((m) => `${m.role}:${m.text}`)).toEqual([
      "user:Q1",
      "assistant:R1",
      "user:Q2",
      "assistant:R2",
    ]);
    expect(Object.keys(messages.get(second.id)![0]!)).toEqual(["id", "role", "text", "provider", "created_at"]);
    expect(messages.has(empty.id)).toBe(false);
    expect((await messagesForExportOf(bob, [first.id])).size).toBe(0);
  });
});
