import { sql, type Kysely } from "kysely";
import { engineOf } from "../portable";

/**
 * How many content items each person has, kept in `users.content_count` by the same triggers that
 * count changes in `content_version` (0010), in the same statement: the dashboard shows "Showing 1–100
 * of N" and GET /api/content says X-Total-Count, and counting the person's index on every render cost
 * 0.5 ms per 10,000 items (docs/performance.md). The triggers of 0010 are replaced by ones that move both columns
 * in one UPDATE; every path that changes a row counts, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("content_count", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE users SET content_count = (SELECT count(*) FROM content_items WHERE content_items.user_id = users.id)`.execute(
    db,
  );

  if (engineOf(db) === "postgres") {
    await sql`
      CREATE OR REPLACE FUNCTION count_content_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE users SET content_version = content_version + 1, content_count = content_count + 1 WHERE id = NEW.user_id;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE users SET content_version = content_version + 1, content_count = content_count - 1 WHERE id = OLD.user_id;
        ELSIF OLD.user_id IS DISTINCT FROM NEW.user_id THEN
          UPDATE users SET content_version = content_version + 1, content_count = content_count - 1 WHERE id = OLD.user_id;
          UPDATE users SET content_version = content_version + 1, content_count = content_count + 1 WHERE id = NEW.user_id;
        ELSE
          UPDATE users SET content_version = content_version + 1 WHERE id = NEW.user_id;
        END IF;
        RETURN NULL;
      END
      $$`.execute(db);
    return;
  }

  for (const name of ["content_items_count_insert", "content_items_count_update", "content_items_count_delete"]) {
    await sql`DROP TRIGGER ${sql.id(name)}`.execute(db);
  }
  await sql`
    CREATE TRIGGER content_items_count_insert AFTER INSERT ON content_items BEGIN
      UPDATE users SET content_version = content_version + 1, content_count = content_count + 1 WHERE id = NEW.user_id;
    END`.execute(db);
  await sql`
    CREATE TRIGGER content_items_count_update AFTER UPDATE ON content_items BEGIN
      UPDATE users SET content_version = content_version + 1,
        content_count = content_count + (CASE WHEN id = NEW.user_id THEN 1 ELSE 0 END) - (CASE WHEN id = OLD.user_id THEN 1 ELSE 0 END)
      WHERE id IN (OLD.user_id, NEW.user_id);
    END`.execute(db);
  await sql`
    CREATE TRIGGER content_items_count_delete AFTER DELETE ON content_items BEGIN
      UPDATE users SET content_version = content_version + 1, content_count = content_count - 1 WHERE id = OLD.user_id;
    END`.execute(db);
}

/** Back to 0010's triggers (the version only), without the count. */
export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`
      CREATE OR REPLACE FUNCTION count_content_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE users SET content_version = content_version + 1 WHERE id = NEW.user_id;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE users SET content_version = content_version + 1 WHERE id = OLD.user_id;
        ELSE
          UPDATE users SET content_version = content_version + 1 WHERE id IN (OLD.user_id, NEW.user_id);
        END IF;
        RETURN NULL;
      END
      $$`.execute(db);
  } else {
    for (const name of ["content_items_count_insert", "content_items_count_update", "content_items_count_delete"]) {
      await sql`DROP TRIGGER ${sql.id(name)}`.execute(db);
    }
    await sql`
      CREATE TRIGGER content_items_count_insert AFTER INSERT ON content_items BEGIN
        UPDATE users SET content_version = content_version + 1 WHERE id = NEW.user_id;
      END`.execute(db);
    await sql`
      CREATE TRIGGER content_items_count_update AFTER UPDATE ON content_items BEGIN
        UPDATE users SET content_version = content_version + 1 WHERE id IN (OLD.user_id, NEW.user_id);
      END`.execute(db);
    await sql`
      CREATE TRIGGER content_items_count_delete AFTER DELETE ON content_items BEGIN
        UPDATE users SET content_version = content_version + 1 WHERE id = OLD.user_id;
      END`.execute(db);
  }
  await db.schema.alterTable("users").dropColumn("content_count").execute();
}
