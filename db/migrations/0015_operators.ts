import type { Kysely } from "kysely";
import { BYTE_COUNT_TYPE } from "../portable";

/**
 * Operating the studio for a group (docs/decisions/0046): what `npm run admin` sets per
 * person, and the invitations of REGISTRATION=invite. Portable SQL (see 0001): text ids, ISO timestamps.
 *
 * - `users.disabled_at`: set by `admin disable`; a disabled person's access tokens stop on their next
 *   request (the per-request family check in app/models/accounts/token-pair.server.ts reads it) and login is refused.
 * - `users.storage_quota_bytes`: the person's own storage quota (`admin quota`); null: USER_STORAGE_QUOTA_MB.
 * - `users.ai_daily_limit`: the person's daily cap on AI requests (`admin ai-limit`); null: AI_DAILY_LIMIT, 0: none.
 * - `users.last_seen_at`: moved when a token pair is issued or rotated (at most every ACCESS_TOKEN_MINUTES).
 * - `invitations`: one row per invitation link, the code kept only as its SHA-256; used once (a
 *   conditional update of used_at in the registration's transaction), until expires_at.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("disabled_at", "text").execute();
  await db.schema.alterTable("users").addColumn("storage_quota_bytes", BYTE_COUNT_TYPE).execute();
  await db.schema.alterTable("users").addColumn("ai_daily_limit", "integer").execute();
  await db.schema.alterTable("users").addColumn("last_seen_at", "text").execute();
  await db.schema
    .createTable("invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("code_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("used_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("invitations").execute();
  for (const column of ["last_seen_at", "ai_daily_limit", "storage_quota_bytes", "disabled_at"]) {
    await db.schema.alterTable("users").dropColumn(column).execute();
  }
}
