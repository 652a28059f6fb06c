import { expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "~/lib/db/db.server";
import { newId } from "~/lib/db/ids.server";
import { claimJob, claimJobs, findClaimableJobs, type RunnerJob } from "~/models/video-jobs/video-job-queue.server";
import { createVideoJob, VIDEO_JOB_LIMIT } from "~/models/video-jobs/video-job.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

/**
 * The domain's concurrency rules on both engines (decision 0015): the per-person limit of unfinished video
 * jobs holds when many creates race (on PostgreSQL each statement reads its own snapshot, so it needs
 * the person's row lock), and every video job is claimed by exactly one runner (FOR UPDATE SKIP LOCKED
 * on PostgreSQL, the conditional update on SQLite), a job whose runner's heartbeat went stale being
 * taken over. The PostgreSQL half runs when TEST_DATABASE_URL is a postgres:// URL (npm run test:pg)
 * or PostgreSQL's binaries are installed (a throwaway cluster), as tests/unit/migrations.test.ts does.
 */
async function insertJobs(
  userId: string,
  count: number,
  heartbeat?: { runner: string; at: string },
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = newId();
    ids.push(id);
    // Distinct creation times, so "oldest first" is well defined.
    const created = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    await db
      .insertInto("video_jobs")
      .values({
        id,
        user_id: userId,
        prompt: `job ${i}`,
        status: "starting",
        provider: "local",
        progress: 0,
        attempts: 0,
        runner_id: heartbeat?.runner ?? null,
        heartbeat_at: heartbeat?.at ?? null,
        created_at: created,
        updated_at: created,
      })
      .execute();
  }
  return ids;
}

const jobRows = (ids: string[]) =>
  db.selectFrom("video_jobs").select(["id", "runner_id", "attempts"]).where("id", "in", ids).orderBy("id").execute();

describeOnEachEngine("concurrency", (engine) => {
  it("never lets racing creates exceed a person's unfinished-job limit", async () => {
    const LIMIT = 2;
    for (let round = 0; round < 15; round++) {
      const userId = await newUserId();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          createVideoJob(userId, `race ${round}.${i}`, "local", { maxUnfinished: LIMIT }),
        ),
      );
      const created = outcomes.filter((o) => o.status === "fulfilled");
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
      expect(created).toHaveLength(LIMIT);
      for (const { reason } of refused) expect(reason).toMatchObject({ status: 429, code: VIDEO_JOB_LIMIT });
      const { n } = await db
        .selectFrom("video_jobs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      expect(Number(n)).toBe(LIMIT);
    }
    // Other people's jobs do not count against this one's limit, and finished ones free a slot.
    const other = await newUserId();
    const [first] = await Promise.all([createVideoJob(other, "a", "local", { maxUnfinished: 1 })]);
    await expect(createVideoJob(other, "b", "local", { maxUnfinished: 1 })).rejects.toMatchObject({ status: 429 });
    await db.updateTable("video_jobs").set({ status: "completed" }).where("id", "=", first.id).execute();
    await expect(createVideoJob(other, "c", "local", { maxUnfinished: 1 })).resolves.toMatchObject({
      status: "starting",
    });
  });

  it("gives every job to exactly one of several racing runners (claimJobs)", async () => {
    await db.deleteFrom("video_jobs").execute();
    const userId = await newUserId();
    const ids = await insertJobs(userId, 24);
    const staleBefore = new Date(Date.now() - 30_000).toISOString();
    const runnerIds = Array.from({ length: 6 }, (_, i) => `runner-${i}`);
    // Each runner keeps claiming batches of 3 until nothing is left.
    const claimedBy = await Promise.all(
      runnerIds.map(async (runnerId) => {
        const mine: RunnerJob[] = [];
        for (;;) {
          const batch = await claimJobs(runnerId, staleBefore, 3);
          if (batch.length === 0) return mine;
          mine.push(...batch);
        }
      }),
    );
    const all = claimedBy.flat().map((job) => job.id);
    expect(all.sort()).toEqual([...ids].sort());
    const rows = await jobRows(ids);
    for (const [i, mine] of claimedBy.entries()) {
      for (const job of mine) {
        expect(job).toMatchObject({ runner_id: runnerIds[i], attempts: 1 });
        expect(rows.find((row) => row.id === job.id)).toMatchObject({ runner_id: runnerIds[i], attempts: 1 });
      }
    }
  });

  it("gives every job to exactly one of several racing runners (findClaimableJobs + claimJob)", async () => {
    await db.deleteFrom("video_jobs").execute();
    const userId = await newUserId();
    const ids = await insertJobs(userId, 16);
    const staleBefore = new Date(Date.now() - 30_000).toISOString();
    const runnerIds = Array.from({ length: 5 }, (_, i) => `cas-${i}`);
    const won = await Promise.all(
      runnerIds.map(async (runnerId) => {
        const mine: string[] = [];
        for (const job of await findClaimableJobs(staleBefore, 100)) {
          if (await claimJob(job, runnerId)) mine.push(job.id);
        }
        return mine;
      }),
    );
    expect(won.flat().sort()).toEqual([...ids].sort());
    const rows = await jobRows(ids);
    expect(rows.every((row) => row.attempts === 1)).toBe(true);
    for (const [i, mine] of won.entries())
      for (const id of mine) expect(rows.find((row) => row.id === id)?.runner_id).toBe(runnerIds[i]);
  });

  it("takes over exactly once the jobs whose runner's heartbeat went stale, and leaves live ones alone", async () => {
    await db.deleteFrom("video_jobs").execute();
    const userId = await newUserId();
    const now = Date.now();
    const stale = await insertJobs(userId, 8, { runner: "dead-runner", at: new Date(now - 120_000).toISOString() });
    const live = await insertJobs(userId, 4, { runner: "live-runner", at: new Date(now).toISOString() });
    const staleBefore = new Date(now - 30_000).toISOString();
    const takers = ["taker-a", "taker-b", "taker-c", "taker-d"];
    const taken = await Promise.all(
      takers.map(async (runnerId, i) =>
        i % 2 === 0
          ? (await claimJobs(runnerId, staleBefore, 100)).map((job) => job.id)
          : (
              await Promise.all(
                (await findClaimableJobs(staleBefore, 100)).map(async (job) =>
                  (await claimJob(job, runnerId)) ? job.id : null,
                ),
              )
            ).filter((id): id is string => id !== null),
      ),
    );
    expect(taken.flat().sort()).toEqual([...stale].sort());
    const rows = await jobRows([...stale, ...live]);
    for (const row of rows) {
      if (live.includes(row.id)) expect(row).toMatchObject({ runner_id: "live-runner", attempts: 0 });
      else expect(takers).toContain(row.runner_id);
    }
    expect(rows.filter((row) => stale.includes(row.id)).every((row) => row.attempts === 1)).toBe(true);
    // The takers' heartbeats are fresh: nobody else can take those jobs now.
    expect(await claimJobs("late-runner", staleBefore, 100)).toEqual([]);
  });

  it("stores text with U+0000 without it, on both engines (PostgreSQL refuses NUL in text)", async () => {
    const userId = await newUserId();
    const job = await createVideoJob(userId, "a\u0000b", "local");
    expect(job.prompt).toBe("ab");
    // The safety net under the models: a raw string parameter with NUL does not fail on PostgreSQL.
    const { rows } = await sql<{ v: string }>`select ${"x\u0000y"} as v`.execute(db);
    expect(rows[0].v).toBe(engine === "postgres" ? "xy" : "x\u0000y");
  });
});
