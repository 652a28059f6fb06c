import { sql, type Kysely } from "kysely";
import { engineOf } from "../portable";

/**
 * The assistant's conversations (docs/decisions/0064): one row per conversation, its messages in
 * order (the person's questions, role "user", and the replies, role "assistant", with the provider
 * that answered). Both carry user_id, so every query is scoped to the owner without a join, and the
 * text counts toward the storage quota like content (0012): triggers add the UTF-8 bytes of a
 * conversation's title and of each message's text to users.text_bytes in the statement that writes
 * the row. A conversation's messages go with it (cascade), its owner's rows with the account.
 * Portable SQL (see 0001): text ids, ISO timestamps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  await db.schema
    .createTable("assistant_conversations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // A person's list, most recently updated first.
  await db.schema
    .createIndex("assistant_conversations_user")
    .on("assistant_conversations")
    .columns(["user_id", "updated_at"])
    .execute();
  await db.schema
    .createTable("assistant_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) =>
      c.notNull().references("assistant_conversations.id").onDelete("cascade"),
    )
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("provider", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("assistant_messages_conversation")
    .on("assistant_messages")
    .columns(["conversation_id", "created_at"])
    .execute();

  const bytes = (expression: string) =>
    postgres ? `octet_length(${expression})` : `coalesce(length(cast(${expression} as blob)), 0)`;
  const counted = [
    { table: "assistant_conversations", column: "title" },
    { table: "assistant_messages", column: "text" },
  ];
  for (const { table, column } of counted) {
    const nu = bytes(`NEW.${column}`);
    const old = bytes(`OLD.${column}`);
    if (postgres) {
      await sql
        .raw(
          `CREATE FUNCTION ${table}_count_text() RETURNS trigger LANGUAGE plpgsql AS $$
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
          `CREATE TRIGGER ${table}_text_bytes_change AFTER INSERT OR DELETE OR UPDATE OF ${column}, user_id ON ${table}
          FOR EACH ROW EXECUTE FUNCTION ${table}_count_text()`,
        )
        .execute(db);
      continue;
    }
    await sql
      .raw(
        `CREATE TRIGGER ${table}_text_bytes_insert AFTER INSERT ON ${table} BEGIN
        UPDATE users SET text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
      END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${table}_text_bytes_update AFTER UPDATE OF ${column}, user_id ON ${table} BEGIN
        UPDATE users SET text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
        UPDATE users SET text_bytes = text_bytes + ${nu} WHERE id = NEW.user_id;
      END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${table}_text_bytes_delete AFTER DELETE ON ${table} BEGIN
        UPDATE users SET text_bytes = text_bytes - ${old} WHERE id = OLD.user_id;
      END`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  for (const table of ["assistant_messages", "assistant_conversations"]) {
    if (postgres) {
      await sql.raw(`DROP TRIGGER ${table}_text_bytes_change ON ${table}`).execute(db);
      await sql.raw(`DROP FUNCTION ${table}_count_text()`).execute(db);
    } else {
      for (const suffix of ["insert", "update", "delete"])
        await sql.raw(`DROP TRIGGER ${table}_text_bytes_${suffix}`).execute(db);
    }
    await db.schema.dropTable(table).execute();
  }
}
