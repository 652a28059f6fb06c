import { sql, type Kysely } from "kysely";

/**
 * The library (decision 0022): every file a person owns in one list, with the provenance of what the AI
 * tools generated. Portable SQL (see 0001): nullable columns added to media_files, the same on SQLite
 * and PostgreSQL. docs/decisions/0022-library-and-provenance.md says why columns and not a table.
 *
 * - `prompt`: the prompt or the spoken text of a generated file (searched with the name);
 * - `provenance`: JSON of the rest ({style, voice, provider, model, source}); null for uploads and
 *   for files generated before this migration ("unknown" on screen, `provenance: null` in JSON);
 * - `width`/`height` (images, from the PNG header) and `duration_ms` (WAV speech), when cheap to know.
 *
 * The kinds grow by `sketch` (drawing-pad results, until now stored as `image` named "sketch-…"),
 * `photo`, `clip` and `memo` (camera photos, camera clips and voice memos saved to the library).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("media_files").addColumn("prompt", "text").execute();
  await db.schema.alterTable("media_files").addColumn("provenance", "text").execute();
  await db.schema.alterTable("media_files").addColumn("width", "integer").execute();
  await db.schema.alterTable("media_files").addColumn("height", "integer").execute();
  await db.schema.alterTable("media_files").addColumn("duration_ms", "integer").execute();
  // The library lists all kinds together: newest first, or by size.
  await db.schema
    .createIndex("media_files_user_created")
    .on("media_files")
    .columns(["user_id", "created_at"])
    .execute();
  await db.schema.createIndex("media_files_user_size").on("media_files").columns(["user_id", "size"]).execute();
  // Sketch results were images named by sketchToImage ("sketch-<style>-<stamp>.png"); no row has kind
  // "sketch" yet, so the (user, kind, name) unique index cannot collide.
  await sql`update media_files set kind = 'sketch' where kind = 'image' and name like 'sketch-%'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update media_files set kind = 'image' where kind = 'sketch'`.execute(db);
  await sql`delete from media_files where kind in ('photo', 'clip', 'memo')`.execute(db);
  await db.schema.dropIndex("media_files_user_size").execute();
  await db.schema.dropIndex("media_files_user_created").execute();
  for (const column of ["duration_ms", "height", "width", "provenance", "prompt"]) {
    await db.schema.alterTable("media_files").dropColumn(column).execute();
  }
}
