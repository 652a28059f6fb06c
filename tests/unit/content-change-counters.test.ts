import { sql } from "kysely";
import { expect, it } from "vitest";
import { db } from "~/lib/db/db.server";
import { createContent, deleteContent, setPinned, updateContent } from "~/models/content/content.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

/**
 * The person's counters that content_items' triggers keep in the statement that changes a row
 * (users.content_version, content_count and text_bytes; one UPDATE of the person's row per change
 * since migration 0024, docs/decisions/0080): after every kind of change they equal what the rows
 * say, and content_version moves once per change.
 */
const counters = (userId: string) =>
  db
    .selectFrom("users")
    .select(["content_version", "content_count", "text_bytes"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow()
    .then((row) => ({
      version: Number(row.content_version),
      count: Number(row.content_count),
      bytes: Number(row.text_bytes),
    }));

/** What the rows say: how many items, and the UTF-8 bytes of their titles and bodies and of their kept versions'. */
async function fromRows(userId: string) {
  const items = await db.selectFrom("content_items").select(["title", "body"]).where("user_id", "=", userId).execute();
  const versions = await db
    .selectFrom("content_versions")
    .select(["title", "body"])
    .where("user_id", "=", userId)
    .execute();
  const bytes = [...items, ...versions].reduce(
    (sum, row) => sum + Buffer.byteLength(row.title) + Buffer.byteLength(row.body),
    0,
  );
  return { count: items.length, bytes };
}

async function expectInStep(userId: string, version: number) {
  const { count, bytes } = await fromRows(userId);
  expect(await counters(userId)).toEqual({ version, count, bytes });
}

describeOnEachEngine("content change counters", () => {
  it("keeps content_version, content_count and text_bytes in step with every kind of change", async () => {
    const ann = await newUserId();
    const bob = await newUserId();
    await expectInStep(ann, 0);

    const first = await createContent(ann, { title: "Café notes", body: "crème brûlée ✓" });
    const second = await createContent(ann, { title: "Second", body: "short" });
    await expectInStep(ann, 2);

    // Grows, then shrinks, then a title-only change (the autosave's writes).
    expect((await updateContent(ann, first.id, { title: "Café notes", body: "crème brûlée ✓ and more ✓✓" })).ok).toBe(
      true,
    );
    expect((await updateContent(ann, first.id, { title: "Café", body: "é" })).ok).toBe(true);
    expect((await updateContent(ann, first.id, { title: "Renamed ☕" }, { versionReason: "autosave" })).ok).toBe(true);
    await expectInStep(ann, 5);

    // A pin is a change (content_version) that moves no bytes.
    const before = (await counters(ann)).bytes;
    await setPinned(ann, second.id, true);
    await expectInStep(ann, 6);
    expect((await counters(ann)).bytes).toBe(before);

    // Moving an item to another person moves its count and bytes, and both people's versions.
    await sql`update content_items set user_id = ${bob} where id = ${second.id}`.execute(db);
    await expectInStep(ann, 7);
    await expectInStep(bob, 1);

    expect(await deleteContent(ann, first.id)).toBe(true);
    await expectInStep(ann, 8);
    expect((await fromRows(ann)).count).toBe(0);
  });
});
