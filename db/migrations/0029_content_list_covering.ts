import type { Kysely } from "kysely";

/**
 * The dashboard's list (`select id, title, pinned, updated_at … where user_id = ? order by pinned desc,
 * updated_at desc, id desc limit 101`) read each of its 100 rows from the table after finding it in
 * content_items_user_list, one table page per row (a row holds its body, so rows spread over many pages).
 * With the title in the index the list is read from the index alone, on both engines (docs/decisions/0081,
 * "The list from its index"). The index keeps its name and its order, so the keyset and the count use it as
 * before; a save rewrites the entry as it did (updated_at is in it already).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("content_items_user_list").execute();
  await db.schema
    .createIndex("content_items_user_list")
    .on("content_items")
    .columns(["user_id", "pinned", "updated_at", "id", "title"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("content_items_user_list").execute();
  await db.schema
    .createIndex("content_items_user_list")
    .on("content_items")
    .columns(["user_id", "pinned", "updated_at", "id"])
    .execute();
}
