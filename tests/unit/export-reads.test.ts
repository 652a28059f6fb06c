import { CompiledQuery } from "kysely";
import { expect, it } from "vitest";
import { engineOf } from "../../db/portable";
import { appendExchange, createConversation } from "~/models/assistant/assistant-conversation.server";
import { db, openBulkReader } from "~/lib/db/db.server";
import { createContent, deleteContent, saveContent, type ContentItem } from "~/models/content/content.server";
import {
  contentForExport,
  contentForExportQuery,
  messageCountsForExport,
  messagesForExportOf,
  versionCountsForExport,
  versionsForExportOf,
} from "~/models/accounts/export-reads.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

// The account export reads bodies and versions a batch per query (docs/decisions/0078): scoped to the
// person, each piece's versions in the order they were kept, a piece deleted meanwhile absent.
describeOnEachEngine("export reads", (engine) => {
  it("reads the person's pieces with their bodies oldest first, a keyset batch per query, none deleted or theirs", async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const made = [];
    for (const [title, body] of [
      ["One", "Grüße 日本語"],
      ["Two", ""],
      ["Gone", "bye"],
      ["Four", "4"],
      ["Five", "5"],
      ["Six", "6"],
    ])
      made.push(await createContent(alice, { title, body }));
    await createContent(bob, { title: "Theirs", body: "not yours" });
    await deleteContent(alice, made[2]!.id);
    // Oldest first, then by id: Six is made oldest, and One and Two share a time (their ids decide).
    const times = [
      "2026-01-02T00:00:00.000Z",
      "2026-01-02T00:00:00.000Z",
      "",
      "2026-01-03T00:00:00.000Z",
      "2026-01-04T00:00:00.000Z",
      "2026-01-01T00:00:00.000Z",
    ];
    for (const [index, item] of made.entries())
      if (times[index])
        await db.updateTable("content_items").set({ created_at: times[index] }).where("id", "=", item.id).execute();
    const [one, two, , four, five, six] = made as [
      ContentItem,
      ContentItem,
      ContentItem,
      ContentItem,
      ContentItem,
      ContentItem,
    ];
    const kept = [six, ...(one.id < two.id ? [one, two] : [two, one]), four, five];
    const batches = [];
    for await (const batch of contentForExport(alice, 2)) batches.push(batch);
    // Five pieces in batches of two: the last batch is short, and no query runs after it.
    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
    expect(batches.flat().map((piece) => [piece.id, piece.title, piece.body])).toEqual(
      kept.map((item) => [item.id, item.title, item.body]),
    );
    expect(Object.keys(batches[0]![0]!).sort()).toEqual(["body", "created_at", "id", "pinned", "title", "updated_at"]);
    expect(batches[0]![0]!.pinned).toBe(false);
    const whole = [];
    for await (const batch of contentForExport(alice, 5)) whole.push(batch.length);
    expect(whole).toEqual([5]);
    for await (const batch of contentForExport(await newUserId(), 2)) expect(batch).toBeUndefined();
  });

  it("reads each batch of pieces as a range of the index content_items_user_created, without a sort", async () => {
    const alice = await newUserId();
    for (let n = 0; n < 300; n++) await createContent(alice, { title: `Piece ${n}`, body: "x".repeat(n) });
    await db.executeQuery(CompiledQuery.raw("analyze"));
    for (const after of [null, { created_at: "2026-11-01T00:00:00.000Z", id: "m" }]) {
      // Batches of 10 of 300: with 200 of 300 rows PostgreSQL rightly reads a table this small whole.
      const query = contentForExportQuery(alice, 10, after).compile();
      const explain = engineOf(db) === "postgres" ? "explain" : "explain query plan";
      const result = await db.executeQuery<Record<string, string>>(
        CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]),
      );
      const plan = result.rows.map((row) => row.detail ?? row["QUERY PLAN"]).join("\n");
      expect(plan).toMatch(/content_items_user_created/);
      expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
      if (after && engineOf(db) === "sqlite") expect(plan).toMatch(/\(user_id=\? AND \(created_at,id\)>\(\?,\?\)\)/);
    }
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

  it("reads through a bulk reader: on SQLite a read-only connection of its own with a small page cache", async () => {
    const alice = await newUserId();
    const piece = await createContent(alice, { title: "Read", body: "through the reader" });
    await saveContent(alice, piece.id, { title: "Read", body: "kept" });
    const reader = openBulkReader();
    try {
      const { value: batch } = await contentForExport(alice, 10, reader.db).next();
      expect(batch?.map((row: { body: string }) => row.body)).toEqual(["kept"]);
      expect(await versionCountsForExport(alice, reader.db)).toEqual(await versionCountsForExport(alice));
      if (engine === "sqlite") {
        expect(reader.db).not.toBe(db);
        const { rows } = await reader.db.executeQuery(CompiledQuery.raw("pragma cache_size"));
        expect(rows).toEqual([{ cache_size: -2048 }]);
        await expect(reader.db.executeQuery(CompiledQuery.raw("delete from content_items"))).rejects.toThrow(
          /readonly/i,
        );
      }
    } finally {
      await reader.close();
    }
    if (engine === "sqlite") await expect(contentForExport(alice, 10, reader.db).next()).rejects.toThrow();
    else expect((await contentForExport(alice, 10, reader.db).next()).done).toBe(false); // the shared pool stays open
  });
});
