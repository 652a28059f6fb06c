import type { Kysely } from "kysely";

/**
 * Projects (docs/screens.md#projects and #project-editor and docs/api.md#entities-and-payloads): a title, a description and up to four
 * attached media. Voice, video and image point at the person's own files in media_files and are set
 * to null when that file is deleted, so a library delete detaches cleanly. Music is one of the
 * bundled demo tracks by id (demo1..demo3), not a file of the person's. Portable SQL (see 0001).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("projects")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("voice_media_id", "text", (c) => c.references("media_files.id").onDelete("set null"))
    .addColumn("video_media_id", "text", (c) => c.references("media_files.id").onDelete("set null"))
    .addColumn("image_media_id", "text", (c) => c.references("media_files.id").onDelete("set null"))
    .addColumn("music_track", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // The grid: WHERE user_id = ? ORDER BY updated_at DESC.
  await db.schema
    .createIndex("projects_user_updated")
    .on("projects")
    .columns(["user_id", "updated_at", "id"])
    .execute();
  // ON DELETE SET NULL looks up the referencing rows; without these it scans every project.
  for (const column of ["voice_media_id", "video_media_id", "image_media_id"]) {
    await db.schema.createIndex(`projects_${column}`).on("projects").column(column).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("projects").execute();
}
