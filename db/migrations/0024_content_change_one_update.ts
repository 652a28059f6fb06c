import { sql, type Kysely } from "kysely";
import { engineOf } from "../portable";

/**
 * One UPDATE of the person's row per change to a content item (docs/decisions/0080). Since 0012 a
 * change ran two triggers that each updated the same users row: 0011's (content_version,
 * content_count) and 0012's (text_bytes). Every autosave paid for both (on PostgreSQL two new row
 * versions of users). One trigger per event now moves all three columns in one statement, with the
 * same arithmetic as before; nothing else changes (a pin still moves content_version, and its text
 * bytes change by nothing).
 */
const sqliteBytes = (row: string) =>
  `(coalesce(length(cast(${row}.title as blob)), 0) + coalesce(length(cast(${row}.body as blob)), 0))`;
const postgresBytes = (row: string) =>
  `(octet_length(coalesce(${row}.title, '')) + octet_length(coalesce(${row}.body, '')))`;

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") {
    const old = postgresBytes("OLD");
    const nu = postgresBytes("NEW");
    await sql`DROP TRIGGER content_items_text_bytes_change ON content_items`.execute(db);
    await sql`DROP FUNCTION count_text_bytes()`.execute(db);
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION count_content_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE users SET content_version = content_version + 1, content_count = content_count + 1,
            text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE users SET content_version = content_version + 1, content_count = content_count - 1,
            text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
        ELSIF OLD.user_id IS DISTINCT FROM NEW.user_id THEN
          UPDATE users SET content_version = content_version + 1, content_count = content_count - 1,
            text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
          UPDATE users SET content_version = content_version + 1, content_count = content_count + 1,
            text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
        ELSE
          UPDATE users SET content_version = content_version + 1, text_bytes = text_bytes - ${old} + ${nu}
            WHERE id = NEW.user_id;
        END IF;
        RETURN NULL;
      END
      $$`,
      )
      .execute(db);
    return;
  }
  const old = sqliteBytes("OLD");
  const nu = sqliteBytes("NEW");
  for (const name of [
    "content_items_count_insert",
    "content_items_count_update",
    "content_items_count_delete",
    "content_items_text_bytes_insert",
    "content_items_text_bytes_update",
    "content_items_text_bytes_delete",
  ])
    await sql`DROP TRIGGER ${sql.id(name)}`.execute(db);
  await sql
    .raw(
      `CREATE TRIGGER content_items_change_insert AFTER INSERT ON content_items BEGIN
      UPDATE users SET content_version = content_version + 1, content_count = content_count + 1,
        text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
    END`,
    )
    .execute(db);
  // The common case (same owner) updates one row by its key; a change of owner moves both rows.
  await sql
    .raw(
      `CREATE TRIGGER content_items_change_update AFTER UPDATE ON content_items WHEN OLD.user_id IS NEW.user_id BEGIN
      UPDATE users SET content_version = content_version + 1, text_bytes = text_bytes - ${old} + ${nu}
        WHERE id = NEW.user_id;
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER content_items_change_owner AFTER UPDATE ON content_items WHEN OLD.user_id IS NOT NEW.user_id BEGIN
      UPDATE users SET content_version = content_version + 1, content_count = content_count - 1,
        text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
      UPDATE users SET content_version = content_version + 1, content_count = content_count + 1,
        text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER content_items_change_delete AFTER DELETE ON content_items BEGIN
      UPDATE users SET content_version = content_version + 1, content_count = content_count - 1,
        text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
    END`,
    )
    .execute(db);
}

/** Back to 0011's and 0012's triggers. */
export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") {
    const old = postgresBytes("OLD");
    const nu = postgresBytes("NEW");
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
    await sql
      .raw(
        `CREATE FUNCTION count_text_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE users SET text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE users SET text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
        ELSIF OLD.user_id IS DISTINCT FROM NEW.user_id THEN
          UPDATE users SET text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
          UPDATE users SET text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
        ELSE
          UPDATE users SET text_bytes = text_bytes - ${old} + ${nu} WHERE id = NEW.user_id;
        END IF;
        RETURN NULL;
      END
      $$`,
      )
      .execute(db);
    await sql`
      CREATE TRIGGER content_items_text_bytes_change AFTER INSERT OR DELETE OR UPDATE OF title, body, user_id ON content_items
      FOR EACH ROW EXECUTE FUNCTION count_text_bytes()`.execute(db);
    return;
  }
  const old = sqliteBytes("OLD");
  const nu = sqliteBytes("NEW");
  for (const name of [
    "content_items_change_insert",
    "content_items_change_update",
    "content_items_change_owner",
    "content_items_change_delete",
  ])
    await sql`DROP TRIGGER ${sql.id(name)}`.execute(db);
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
  await sql
    .raw(
      `CREATE TRIGGER content_items_text_bytes_insert AFTER INSERT ON content_items BEGIN
      UPDATE users SET text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER content_items_text_bytes_update AFTER UPDATE OF title, body, user_id ON content_items BEGIN
      UPDATE users SET text_bytes = text_bytes
        - (CASE WHEN id = OLD.user_id THEN ${old} ELSE 0 END) + (CASE WHEN id = NEW.user_id THEN ${nu} ELSE 0 END)
      WHERE id IN (OLD.user_id, NEW.user_id);
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER content_items_text_bytes_delete AFTER DELETE ON content_items BEGIN
      UPDATE users SET text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
    END`,
    )
    .execute(db);
}
