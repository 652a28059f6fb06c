import { sql, type Kysely } from "kysely";
import { engineOf } from "../portable";

/**
 * A per-person counter of changes to their content (docs/performance.md): `users.content_version` goes
 * up with every insert, update and delete of one of their `content_items`, so a page built from their
 * content can be kept and reused until it changes (app/auth/personal-page-cache.server.ts,
 * docs/decisions/0017-personal-page-cache.md).
 *
 * Kept by triggers rather than by the model's writes: every path that changes a row counts (the
 * model, the benchmark's and backups' direct SQL, anything added later), in the same statement and so
 * the same transaction as the change. Each engine writes triggers its own way.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("content_version", "integer", (column) => column.notNull().defaultTo(0))
    .execute();

  if (engineOf(db) === "postgres") {
    await sql`
      CREATE FUNCTION count_content_change() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await sql`
      CREATE TRIGGER content_items_count_change AFTER INSERT OR UPDATE OR DELETE ON content_items
      FOR EACH ROW EXECUTE FUNCTION count_content_change()`.execute(db);
    return;
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

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`DROP TRIGGER content_items_count_change ON content_items`.execute(db);
    await sql`DROP FUNCTION count_content_change()`.execute(db);
  } else {
    for (const name of ["content_items_count_insert", "content_items_count_update", "content_items_count_delete"]) {
      await sql`DROP TRIGGER ${sql.id(name)}`.execute(db);
    }
  }
  await db.schema.alterTable("users").dropColumn("content_version").execute();
}
