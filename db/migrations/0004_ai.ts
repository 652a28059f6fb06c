import type { Kysely } from "kysely";
import { floatType } from "../portable";

/**
 * AI video jobs (docs/api.md#entities-and-payloads and docs/screens.md#states-and-transitions statuses): one row per job, owned by a user,
 * worked by the job runner inside the server (app/ai/video-job-runner.server.ts). runner_id and
 * heartbeat_at say which server process works the job; a job whose heartbeat went stale (its process
 * stopped) is picked up again. Portable SQL (see 0001).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("video_jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("prompt", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    // real on SQLite (as always), double precision on PostgreSQL (its real is only 4 bytes): db/portable.ts.
    .addColumn("progress", floatType(db), (c) => c.notNull().defaultTo(0))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("external_id", "text")
    .addColumn("media_id", "text", (c) => c.references("media_files.id").onDelete("set null"))
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("runner_id", "text")
    .addColumn("heartbeat_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("completed_at", "text")
    .execute();
  // A person's jobs, newest first.
  await db.schema.createIndex("video_jobs_user_created").on("video_jobs").columns(["user_id", "created_at"]).execute();
  // The runner's scan for unfinished jobs.
  await db.schema.createIndex("video_jobs_status").on("video_jobs").columns(["status", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("video_jobs").execute();
}
