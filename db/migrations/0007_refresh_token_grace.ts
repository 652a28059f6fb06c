import type { Kysely } from "kysely";

/**
 * Refresh-token rotation with a grace window (decision 0015; RFC 9700 §4.14.2): for a
 * few seconds after a refresh token is exchanged, presenting it again answers with the same successor
 * pair instead of revoking the family (parallel refreshes, a retry after a lost response, on any
 * instance). The pair is kept in the spent token's row, sealed (AES-256-GCM, key derived from the
 * session secret; see app/models/accounts/token-pair.server.ts), and cleared once the window has passed.
 * Portable SQL (see 0001): a nullable text column, the same on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("refresh_tokens").addColumn("successor_sealed", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("refresh_tokens").dropColumn("successor_sealed").execute();
}
