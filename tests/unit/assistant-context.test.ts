import { describe, expect, it } from "vitest";
import { OfflineAssistant } from "~/ai/chat/offline-assistant.server";
import { db } from "~/lib/db/db.server";
import { newId } from "~/lib/db/ids.server";
import { createContent } from "~/models/content/content.server";
import { createProject } from "~/models/projects/project.server";
import {
  ASSISTANT_CONTEXT,
  ASSISTANT_CONTEXT_MAX_BODY_CHARS,
  personalContext,
} from "~/services/assistant/assistant.server";
import { newUserId } from "../support/user-rows";

/**
 * The assistant's context is bounded (decision 0038): the top search hits of the question among the
 * person's items, each body cut, and their latest projects, whatever the person has stored. A person
 * with hundreds of long items that all match gets a context of the same size as one with a few.
 */
const LONG_BODY = 20_000;

/** `count` items of LONG_BODY characters, all about zeppelins, inserted in one go (oldest first). */
async function storeLongItems(userId: string, count: number, from = Date.UTC(2026, 0, 1)) {
  const filler = "The zeppelin drifts over the harbour. ".repeat(Math.ceil(LONG_BODY / 38)).slice(0, LONG_BODY);
  for (let start = 0; start < count; start += 50) {
    const rows = Array.from({ length: Math.min(50, count - start) }, (_, i) => {
      const at = new Date(from + (start + i) * 1000).toISOString();
      return {
        id: newId(),
        user_id: userId,
        title: `Harbour log ${start + i}`,
        body: filler,
        pinned: 0,
        created_at: at,
        updated_at: at,
      };
    });
    await db.insertInto("content_items").values(rows).execute();
  }
}

const sizeOf = (context: Awaited<ReturnType<typeof personalContext>>) =>
  [...(context.items ?? []), ...(context.projects ?? [])].reduce(
    (sum, entry) => sum + entry.title.length + entry.body.length,
    0,
  );

describe("the assistant's context", () => {
  it("is at most the top hits with cut bodies, however many long items the person has", async () => {
    const [few, many] = [await newUserId(), await newUserId()];
    await storeLongItems(few, 10);
    await storeLongItems(many, 300);
    for (let i = 0; i < 30; i++)
      await createProject(many, { title: `Zeppelin film ${i}`, description: "z".repeat(5000) });

    const question = "What did I write about the zeppelin?";
    const small = await personalContext(few, question);
    const large = await personalContext(many, question);
    expect(small.items).toHaveLength(ASSISTANT_CONTEXT.items);
    expect(large.items).toHaveLength(ASSISTANT_CONTEXT.items);
    expect(large.projects!.length).toBeLessThanOrEqual(ASSISTANT_CONTEXT.projects);
    for (const entry of [...large.items!, ...large.projects!])
      expect(entry.body.length).toBeLessThanOrEqual(ASSISTANT_CONTEXT.bodyChars);
    // The items' part does not grow with the person's material: the same for 10 items as for 300.
    const bodies = (items: { body: string }[] = []) => items.reduce((sum, item) => sum + item.body.length, 0);
    expect(bodies(large.items)).toBe(bodies(small.items));
    expect(bodies(large.items)).toBe(ASSISTANT_CONTEXT.items * ASSISTANT_CONTEXT.bodyChars);
    expect(sizeOf(large)).toBeLessThanOrEqual(
      ASSISTANT_CONTEXT_MAX_BODY_CHARS + 200 * (ASSISTANT_CONTEXT.items + ASSISTANT_CONTEXT.projects),
    );
    // The newest hits: the most recent logs.
    expect(large.items!.map((item) => item.title)).toContain("Harbour log 299");
  });

  it("puts the items with every word of the question first, however old, then the ones with any", async () => {
    const userId = await newUserId();
    const old = await createContent(userId, {
      title: "Airship timetable",
      body: "The zeppelin leaves at dawn from the northern mast.",
    });
    await db
      .updateTable("content_items")
      .set({ updated_at: "2020-01-01T00:00:00.000Z" })
      .where("id", "=", old.id)
      .execute();
    await storeLongItems(userId, 40);
    const context = await personalContext(userId, "When does the zeppelin leave at dawn?");
    expect(context.items).toHaveLength(ASSISTANT_CONTEXT.items);
    expect(context.items![0].title).toBe("Airship timetable");
    const reply = await new OfflineAssistant().reply("When does the zeppelin leave at dawn?", context);
    expect(reply.reply).toContain('"Airship timetable"');
    // Nothing matches: no items at all (not the newest 500).
    expect((await personalContext(userId, "Tell me about volcanoes")).items).toEqual([]);
  });

  it("reads only the asking person's items", async () => {
    const [alice, bob] = [await newUserId(), await newUserId()];
    await createContent(alice, { title: "Alice's zeppelin", body: "secret" });
    await storeLongItems(bob, 3);
    const context = await personalContext(bob, "zeppelin");
    expect(context.items!.map((item) => item.title)).not.toContain("Alice's zeppelin");
  });
});
