import { sql, type Kysely } from "kysely";
import { engineOf } from "../portable";

/**
 * The version history of text pieces (docs/decisions/0072): one row per kept state of a piece (its
 * title and body as a write stored them, created_at = the piece's updated_at of that write) and why
 * it was kept ('save', 'autosave', 'restore'). Rows carry user_id, so every query is scoped to the
 * owner without a join; they go with their piece (cascade) and their owner. Their text counts toward
 * the storage quota like content (0012, 0019): triggers add the UTF-8 bytes of title + body to
 * users.text_bytes in the statement that writes the row. Portable SQL (see 0001): text ids, ISO timestamps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  await db.schema
    .createTable("content_versions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("content_id", "text", (c) => c.notNull().references("content_items.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // A piece's history newest first, the newest autosave (the 5-minute rule) and a state by its time.
  await db.schema
    .createIndex("content_versions_content")
    .on("content_versions")
    .columns(["content_id", "created_at"])
    .execute();

  const bytes = (expression: string) =>
    postgres ? `octet_length(${expression})` : `coalesce(length(cast(${expression} as blob)), 0)`;
  const nu = `(${bytes("NEW.title")} + ${bytes("NEW.body")})`;
  const old = `(${bytes("OLD.title")} + ${bytes("OLD.body")})`;
  if (postgres) {
    await sql
      .raw(
        `CREATE FUNCTION content_versions_count_text() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE users SET text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE users SET text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
        ELSE
          UPDATE users SET text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
          UPDATE users SET text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
        END IF;
        RETURN NULL;
      END
      $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER content_versions_text_bytes_change AFTER INSERT OR DELETE OR UPDATE OF title, body, user_id
        ON content_versions FOR EACH ROW EXECUTE FUNCTION content_versions_count_text()`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE TRIGGER content_versions_text_bytes_insert AFTER INSERT ON content_versions BEGIN
      UPDATE users SET text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER content_versions_text_bytes_update AFTER UPDATE OF title, body, user_id ON content_versions BEGIN
      UPDATE users SET text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
      UPDATE users SET text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER content_versions_text_bytes_delete AFTER DELETE ON content_versions BEGIN
      UPDATE users SET text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
    END`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql.raw(`DROP TRIGGER content_versions_text_bytes_change ON content_versions`).execute(db);
    await sql.raw(`DROP FUNCTION content_versions_count_text()`).execute(db);
  } else {
    for (const suffix of ["insert", "update", "delete"])
      await sql.raw(`DROP TRIGGER content_versions_text_bytes_${suffix}`).execute(db);
  }
  await db.schema.dropTable("content_versions").execute();
}
