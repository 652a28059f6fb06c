import type { Kysely } from "kysely";
import { autoIncrementPrimaryKey } from "../portable";

// Portable SQL only: text ids, ISO timestamps as text, so the same migration runs on SQLite and Postgres.
// The one engine-specific column (login_attempts.id) goes through db/portable.ts, which compiles to
// exactly the SQL this migration always ran on SQLite.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("refresh_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("family_id", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema.createIndex("refresh_tokens_family").on("refresh_tokens").column("family_id").execute();
  await db.schema.createIndex("refresh_tokens_user").on("refresh_tokens").column("user_id").execute();

  await db.schema
    .createTable("login_attempts")
    .addColumn("id", ...autoIncrementPrimaryKey(db))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("client_address", "text", (c) => c.notNull())
    .addColumn("attempted_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("login_attempts_email").on("login_attempts").columns(["email", "attempted_at"]).execute();
  await db.schema
    .createIndex("login_attempts_address")
    .on("login_attempts")
    .columns(["client_address", "attempted_at"])
    .execute();

  await db.schema
    .createTable("feedback")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["feedback", "login_attempts", "refresh_tokens", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
