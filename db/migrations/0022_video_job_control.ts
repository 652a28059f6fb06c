import type { Kysely } from "kysely";

/**
 * Video jobs a person controls (docs/decisions/0075): `queue_position` orders a person's waiting jobs
 * (a new job goes last; a move renumbers them), `claimed_at` is when a runner last took the job, so the
 * claim can go round-robin across people (the person whose last claim is longest ago first). Existing
 * jobs take position 0 and no claim time: they keep their order by creation. Portable SQL (see 0001).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("video_jobs")
    .addColumn("queue_position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("video_jobs").addColumn("claimed_at", "text").execute();
  // The claim's "when did this person last get a job" and a person's waiting line.
  await db.schema.createIndex("video_jobs_user_claimed").on("video_jobs").columns(["user_id", "claimed_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("video_jobs_user_claimed").execute();
  await db.schema.alterTable("video_jobs").dropColumn("claimed_at").execute();
  await db.schema.alterTable("video_jobs").dropColumn("queue_position").execute();
}
