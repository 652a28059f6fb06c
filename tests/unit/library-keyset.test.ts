import { CompiledQuery } from "kysely";
import { beforeEach, expect, it } from "vitest";
import { engineOf } from "../../db/portable";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { newId } from "~/lib/db/ids.server";
import { listLibrary } from "~/models/media/library-files.server";
import { afterLibraryKey, libraryCursorKey, orderLibrary } from "~/models/media/library-keyset.server";
import { LIBRARY_SORTS, type LibrarySort } from "~/common/media/library-rules";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

/**
 * The library's keyset (docs/decisions/0076) on both engines: following the cursors gives every file
 * once, in each sort's own order, ties in date and size included, deletions between pages too; a
 * cursor of another sort or shape is a 400; a page after a cursor is a range of migration 0023's index.
 */

/** Files inserted directly: sizes repeat every 4, times every 3 (the ties). */
async function seed(userId: string, count: number) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    user_id: userId,
    kind: i % 2 ? "photo" : "memo",
    name: `file-${i}`,
    content_type: "application/octet-stream",
    size: (i % 4) * 1000,
    created_at: `2026-11-01T00:${String(Math.floor(i / 3) % 60).padStart(2, "0")}:00.000Z`,
    updated_at: "2026-11-01T00:00:00.000Z",
  }));
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto("media_files")
      .values(rows.slice(i, i + 100))
      .execute();
}

async function walk(userId: string, sort: LibrarySort, perPage: number, between?: () => Promise<void>) {
  const seen: string[] = [];
  let page = await listLibrary(userId, { sort, perPage });
  seen.push(...page.files.map((file) => file.id));
  while (page.next !== null) {
    await between?.();
    page = await listLibrary(userId, { sort, perPage, after: libraryCursorKey(sort, page.next) });
    seen.push(...page.files.map((file) => file.id));
  }
  return seen;
}

describeOnEachEngine("library keyset", (engine) => {
  let alice: string;
  beforeEach(async () => {
    alice = await newUserId();
  });

  it("walks every file once in each sort's order, ties broken the same way as the offset pages", async () => {
    await seed(alice, 23);
    await seed(await newUserId(), 5);
    for (const sort of LIBRARY_SORTS) {
      const whole = (await listLibrary(alice, { sort, perPage: 100 })).files.map((file) => file.id);
      expect(whole).toHaveLength(23);
      expect(await walk(alice, sort, 4), sort).toEqual(whole);
      const offsetPages: string[] = [];
      for (let page = 1; page <= 6; page++) {
        offsetPages.push(...(await listLibrary(alice, { sort, perPage: 4, page })).files.map((file) => file.id));
      }
      expect(offsetPages, sort).toEqual(whole);
    }
  });

  it("continues after the last file shown when files are deleted between pages", async () => {
    await seed(alice, 12);
    const whole = (await listLibrary(alice, { perPage: 100 })).files.map((file) => file.id);
    let deleted = false;
    const seen = await walk(alice, "-date", 5, async () => {
      if (deleted) return;
      deleted = true;
      await db.deleteFrom("media_files").where("id", "in", [whole[4]!, whole[1]!, whole[7]!]).execute();
    });
    expect(seen).toEqual([...whole.slice(0, 5), ...whole.slice(5).filter((id) => id !== whole[7])]);
  });

  it("refuses a cursor of another sort, or one it did not make: 400", async () => {
    await seed(alice, 3);
    const first = await listLibrary(alice, { sort: "-date", perPage: 1 });
    expect(first.next).not.toBeNull();
    for (const [sort, cursor] of [
      ["-size", first.next!],
      ["date", first.next!],
      ["-date", "zzz"],
      ["-date", Buffer.from('{"l":"library-date","k":[1,2]}').toString("base64url")],
    ] as [LibrarySort, string][]) {
      expect(() => libraryCursorKey(sort, cursor)).toThrow(DomainError);
    }
    const sized = await listLibrary(alice, { sort: "size", perPage: 1 });
    expect(libraryCursorKey("size", sized.next!).id).toBe(sized.files[0]!.id);
  });

  it("reads a page after a cursor newest first as a range of (user_id, created_at, id)", async () => {
    await seed(alice, 300);
    await db.executeQuery(CompiledQuery.raw("analyze"));
    const first = await listLibrary(alice, { perPage: 10 });
    const key = libraryCursorKey("-date", first.next!);
    const query = afterLibraryKey(
      orderLibrary(db.selectFrom("media_files").select(["id", "name"]).where("user_id", "=", alice), "-date"),
      "-date",
      key,
    )
      .limit(11)
      .compile();
    const explain = engineOf(db) === "postgres" ? "explain" : "explain query plan";
    const plan = (
      await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]))
    ).rows
      .map((row) => row.detail ?? row["QUERY PLAN"])
      .join("\n");
    if (engine === "sqlite") {
      expect(plan).toMatch(
        /SEARCH media_files USING INDEX media_files_user_created_id \(user_id=\? AND \(created_at,id\)<\(\?,\?\)\)/,
      );
    } else {
      expect(plan).toMatch(/Index Scan( Backward)? using media_files_user_created_id/);
    }
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
  });
});
