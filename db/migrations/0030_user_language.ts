import type { Kysely } from "kysely";

/**
 * The language a person chose for the screens (docs/translating.md): saved on the account, so it
 * follows them to any browser they sign in on. Null: the browser's preferences cookie, else its
 * Accept-Language, decides. Portable SQL (see 0001): a nullable text column holding a BCP 47 tag.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("language", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("language").execute();
}
