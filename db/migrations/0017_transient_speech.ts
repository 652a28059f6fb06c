import type { Kysely } from "kysely";
import { BYTE_COUNT_TYPE } from "../portable";

/**
 * Speech that is not kept (docs/decisions/0042): the assistant's spoken replies. The bytes
 * live in the one file store under the row's id, like a media file's, but the row is here, not in
 * media_files: so nothing that lists, counts or exports media (the library, the voice lists, the
 * storage quota's triggers, the export, backups) ever sees it. A row lives until `expires_at`
 * (minutes); /media/spoken/{id} serves it to its owner until then, and the housekeeping deletes
 * expired rows and then their bytes. "Save to library" moves a live row into media_files under the
 * same id (one transaction, the quota checked), so the bytes are never copied.
 *
 * - `name`: the name the file takes in the library if it is kept ("speech-<words>-<time>.wav");
 * - `prompt`, `provenance`: as media_files (the spoken text; JSON of {style, voice, provider, model, source});
 * - `voice_id`: the provider's voice, as the API answers it.
 * Portable SQL (see 0001): text ids, ISO timestamps, sizes as bigint.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("transient_speech")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size", BYTE_COUNT_TYPE, (c) => c.notNull())
    .addColumn("prompt", "text", (c) => c.notNull())
    .addColumn("provenance", "text", (c) => c.notNull())
    .addColumn("voice_id", "text", (c) => c.notNull())
    .addColumn("duration_ms", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  // A person's clips, newest first (the cap on how many one person has live).
  await db.schema
    .createIndex("transient_speech_user_created")
    .on("transient_speech")
    .columns(["user_id", "created_at"])
    .execute();
  // The housekeeping's prune of expired clips, across people.
  await db.schema.createIndex("transient_speech_expires").on("transient_speech").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("transient_speech").execute();
}
