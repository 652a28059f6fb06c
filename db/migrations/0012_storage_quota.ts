import { sql, type Kysely } from "kysely";
import { BYTE_COUNT_TYPE, engineOf } from "../portable";

/**
 * The storage quota held under races, and text counted toward it (docs/decisions/0037).
 *
 * - `users.media_bytes`: the bytes of the person's media_files, and `users.text_bytes`: the UTF-8
 *   bytes of their content items' titles and bodies. Kept by triggers in the statement that changes a
 *   row (every path counts, as with 0010's version), from the row's own size and lengths: no sum over
 *   every file or body. The trigger's UPDATE of the person's row is also what makes writers of one
 *   person take turns on PostgreSQL (the row lock is held until the transaction ends), so a write and
 *   the quota check after it, in one transaction, cannot both pass for two racing writes.
 * - `storage_reservations`: bytes an upload or a generation holds while it streams and while its
 *   file is committed to the store (on S3 a server-side copy), so racing uploads cannot each see the
 *   same free room. A row names its instance and is refreshed while bytes arrive; it counts only while
 *   recent (app/models/media/storage-quota.server.ts), so an instance killed mid-upload leaks nothing for
 *   long, and stale rows are pruned by the housekeeping.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  await db.schema
    .alterTable("users")
    .addColumn("media_bytes", BYTE_COUNT_TYPE, (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("text_bytes", BYTE_COUNT_TYPE, (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("storage_reservations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("instance_id", "text", (c) => c.notNull())
    .addColumn("bytes", BYTE_COUNT_TYPE, (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("storage_reservations_user")
    .on("storage_reservations")
    .columns(["user_id", "updated_at"])
    .execute();
  await db.schema
    .createIndex("storage_reservations_updated")
    .on("storage_reservations")
    .columns(["updated_at"])
    .execute();

  // The UTF-8 bytes of a row's title and body (both engines store UTF-8).
  const textBytes = (row: string) =>
    postgres
      ? `(octet_length(coalesce(${row}.title, '')) + octet_length(coalesce(${row}.body, '')))`
      : `(coalesce(length(cast(${row}.title as blob)), 0) + coalesce(length(cast(${row}.body as blob)), 0))`;

  await sql`UPDATE users SET
    media_bytes = (SELECT coalesce(sum(size), 0) FROM media_files WHERE media_files.user_id = users.id),
    text_bytes = (SELECT coalesce(sum(${sql.raw(textBytes("content_items"))}), 0) FROM content_items WHERE content_items.user_id = users.id)`.execute(
    db,
  );

  if (postgres) {
    await sql`
      CREATE FUNCTION count_media_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE users SET media_bytes = media_bytes + NEW.size WHERE id = NEW.user_id;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE users SET media_bytes = media_bytes - OLD.size WHERE id = OLD.user_id;
        ELSE
          UPDATE users SET media_bytes = media_bytes - OLD.size WHERE id = OLD.user_id;
          UPDATE users SET media_bytes = media_bytes + NEW.size WHERE id = NEW.user_id;
        END IF;
        RETURN NULL;
      END
      $$`.execute(db);
    await sql`
      CREATE TRIGGER media_files_bytes_change AFTER INSERT OR DELETE OR UPDATE OF size, user_id ON media_files
      FOR EACH ROW EXECUTE FUNCTION count_media_bytes()`.execute(db);
    await sql
      .raw(
        `CREATE FUNCTION count_text_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE users SET text_bytes = text_bytes + ${textBytes("NEW")} WHERE id = NEW.user_id;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE users SET text_bytes = text_bytes - ${textBytes("OLD")} WHERE id = OLD.user_id;
        ELSIF OLD.user_id IS DISTINCT FROM NEW.user_id THEN
          UPDATE users SET text_bytes = text_bytes - ${textBytes("OLD")} WHERE id = OLD.user_id;
          UPDATE users SET text_bytes = text_bytes + ${textBytes("NEW")} WHERE id = NEW.user_id;
        ELSE
          UPDATE users SET text_bytes = text_bytes - ${textBytes("OLD")} + ${textBytes("NEW")} WHERE id = NEW.user_id;
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

  await sql`
    CREATE TRIGGER media_files_bytes_insert AFTER INSERT ON media_files BEGIN
      UPDATE users SET media_bytes = media_bytes + NEW.size WHERE id = NEW.user_id;
    END`.execute(db);
  await sql`
    CREATE TRIGGER media_files_bytes_update AFTER UPDATE OF size, user_id ON media_files BEGIN
      UPDATE users SET media_bytes = media_bytes
        - (CASE WHEN id = OLD.user_id THEN OLD.size ELSE 0 END) + (CASE WHEN id = NEW.user_id THEN NEW.size ELSE 0 END)
      WHERE id IN (OLD.user_id, NEW.user_id);
    END`.execute(db);
  await sql`
    CREATE TRIGGER media_files_bytes_delete AFTER DELETE ON media_files BEGIN
      UPDATE users SET media_bytes = media_bytes - OLD.size WHERE id = OLD.user_id;
    END`.execute(db);
  await sql
    .raw(
      `CREATE TRIGGER content_items_text_bytes_insert AFTER INSERT ON content_items BEGIN
      UPDATE users SET text_bytes = text_bytes + ${textBytes("NEW")} WHERE id = NEW.user_id;
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER content_items_text_bytes_update AFTER UPDATE OF title, body, user_id ON content_items BEGIN
      UPDATE users SET text_bytes = text_bytes
        - (CASE WHEN id = OLD.user_id THEN ${textBytes("OLD")} ELSE 0 END) + (CASE WHEN id = NEW.user_id THEN ${textBytes("NEW")} ELSE 0 END)
      WHERE id IN (OLD.user_id, NEW.user_id);
    END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER content_items_text_bytes_delete AFTER DELETE ON content_items BEGIN
      UPDATE users SET text_bytes = text_bytes - ${textBytes("OLD")} WHERE id = OLD.user_id;
    END`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`DROP TRIGGER content_items_text_bytes_change ON content_items`.execute(db);
    await sql`DROP FUNCTION count_text_bytes()`.execute(db);
    await sql`DROP TRIGGER media_files_bytes_change ON media_files`.execute(db);
    await sql`DROP FUNCTION count_media_bytes()`.execute(db);
  } else {
    for (const name of [
      "content_items_text_bytes_insert",
      "content_items_text_bytes_update",
      "content_items_text_bytes_delete",
      "media_files_bytes_insert",
      "media_files_bytes_update",
      "media_files_bytes_delete",
    ]) {
      await sql`DROP TRIGGER ${sql.id(name)}`.execute(db);
    }
  }
  await db.schema.dropTable("storage_reservations").execute();
  await db.schema.alterTable("users").dropColumn("text_bytes").execute();
  await db.schema.alterTable("users").dropColumn("media_bytes").execute();
}
