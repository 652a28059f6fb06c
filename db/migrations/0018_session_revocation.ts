import { sql, type Kysely } from "kysely";

/**
 * Sessions end when they are ended (docs/decisions/0050): `sessions.revoked_at`, set by every
 * revoke (one session, all others, a password change, logout, reuse detection, `admin sessions revoke`,
 * `disable`) while it holds the session's row, which a refresh-token rotation also takes before it makes
 * the successor token. The per-request check reads it, so an access token already issued stops too.
 *
 * Existing data:
 * - a family with a live token and no `sessions` row (none is expected after 0016) gets one;
 * - a family any token of which was revoked was ended once (every revoke ends a whole family), so its
 *   session is revoked, and so is every token of it still unrevoked: a successor the old revoke could
 *   not see while the rotation was inserting it (the bug this fixes) ends now.
 * Portable SQL (see 0001): a nullable text column, ISO timestamps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("revoked_at", "text").execute();
  await sql`insert into sessions (id, user_id, device, created_at, last_used_at)
    select family_id, min(user_id), 'Unknown device', min(created_at), max(created_at)
    from refresh_tokens
    where revoked_at is null and family_id not in (select id from sessions)
    group by family_id`.execute(db);
  await sql`update sessions set revoked_at = (
      select max(refresh_tokens.revoked_at) from refresh_tokens where refresh_tokens.family_id = sessions.id)
    where exists (select 1 from refresh_tokens where refresh_tokens.family_id = sessions.id and refresh_tokens.revoked_at is not null)`.execute(
    db,
  );
  await sql`update refresh_tokens set revoked_at = (select sessions.revoked_at from sessions where sessions.id = refresh_tokens.family_id), successor_sealed = null
    where revoked_at is null
    and exists (select 1 from sessions where sessions.id = refresh_tokens.family_id and sessions.revoked_at is not null)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("revoked_at").execute();
}
