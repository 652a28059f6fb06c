import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ProviderError } from "~/ai/errors.server";
import { LocalVideoRenderer } from "~/ai/video/local-video.server";
import type { RenderedVideo, VideoJobRun, VideoProvider } from "~/ai/video/video.server";
import { MAX_BACKOFF_MS, VideoJobRunner } from "~/services/video-jobs/video-job-runner.server";
import { db } from "~/lib/db/db.server";
import { fileStore } from "~/lib/storage/storage.server";
import { getMediaById } from "~/models/media/media.server";
import { DomainError } from "~/lib/domain-error";
import { unavailable } from "~/lib/outage.server";
import {
  createVideoJob,
  getVideoJob,
  listVideoJobs,
  VIDEO_JOB_LIMIT,
  videoPromptSchema,
} from "~/models/video-jobs/video-job.server";
import { newUserId } from "../support/user-rows";
import { waitFor } from "../support/wait";

const WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
  Buffer.from("\x42\x82\x84webm"),
  Buffer.alloc(200, 7),
]);

/** A provider whose runs the test drives. */
class ScriptedProvider implements VideoProvider {
  readonly offline = true;
  readonly runs: VideoJobRun[] = [];
  constructor(
    readonly id: string,
    private readonly script: (job: VideoJobRun) => Promise<RenderedVideo>,
  ) {}
  run(job: VideoJobRun) {
    this.runs.push(job);
    return this.script(job);
  }
}

const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));

const runners: VideoJobRunner[] = [];
function runner(provider: VideoProvider, options: ConstructorParameters<typeof VideoJobRunner>[1] = {}) {
  const created = new VideoJobRunner(provider, { tickMs: 50, staleMs: 300, ...options });
  runners.push(created);
  return created;
}

let user: string;
beforeEach(async () => {
  await db.deleteFrom("video_jobs").execute();
  user = await newUserId();
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});

describe("video job model", () => {
  it("validates prompts; a job is visible to its owner only", async () => {
    expect(videoPromptSchema.safeParse({ prompt: "   " }).error?.issues[0].message).toBe("prompt is required");
    expect(videoPromptSchema.safeParse({}).error?.issues[0].message).toBe("prompt is required");
    expect(videoPromptSchema.safeParse({ prompt: "x".repeat(1001) }).success).toBe(false);
    const job = await createVideoJob(user, "a cat", "local-renderer");
    expect(job).toMatchObject({ status: "starting", progress: 0, url: null, prompt: "a cat" });
    expect(await getVideoJob(user, job.id)).toEqual(job);
    const other = await newUserId();
    expect(await getVideoJob(other, job.id)).toBeUndefined();
    expect(await listVideoJobs(other)).toEqual([]);
    expect((await listVideoJobs(user)).map((j) => j.id)).toEqual([job.id]);
  });
});

describe("video job limit per person", () => {
  it("refuses a new job while the person has the maximum unfinished, counting only their own unfinished jobs", async () => {
    const limited = (prompt: string, owner = user) =>
      createVideoJob(owner, prompt, "local-renderer", { maxUnfinished: 3 });
    const jobs = [await limited("one"), await limited("two"), await limited("three")];
    expect(jobs.map((job) => job.status)).toEqual(["starting", "starting", "starting"]);
    const refused = await limited("four").catch((error) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: 429, code: VIDEO_JOB_LIMIT });
    expect(refused.message).toBe("You already have 3 videos being generated. Wait for one to finish, then try again.");
    expect((await listVideoJobs(user)).map((job) => job.prompt).sort()).toEqual(["one", "three", "two"]);

    // Someone else is not held back by this person's jobs.
    expect((await limited("theirs", await newUserId())).status).toBe("starting");

    // Queued, processing and finishing jobs count; finished ones (completed, error, timeout) do not.
    await db.updateTable("video_jobs").set({ status: "processing" }).where("id", "=", jobs[0].id).execute();
    await db.updateTable("video_jobs").set({ status: "finishing" }).where("id", "=", jobs[1].id).execute();
    await db.updateTable("video_jobs").set({ status: "queued" }).where("id", "=", jobs[2].id).execute();
    await expect(limited("five")).rejects.toMatchObject({ status: 429, code: VIDEO_JOB_LIMIT });
    await db.updateTable("video_jobs").set({ status: "error" }).where("id", "=", jobs[0].id).execute();
    const accepted = await limited("six");
    expect(accepted).toMatchObject({ status: "starting", progress: 0, prompt: "six", url: null });
    expect(await getVideoJob(user, accepted.id)).toEqual(accepted);
    await expect(limited("seven")).rejects.toMatchObject({ status: 429, code: VIDEO_JOB_LIMIT });
  });

  it("lets no burst of requests slip past the limit", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => createVideoJob(user, `burst ${i}`, "local-renderer", { maxUnfinished: 2 })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(2);
    const rejected = results.filter((result) => result.status === "rejected");
    expect(rejected).toHaveLength(4);
    for (const result of rejected)
      expect((result as PromiseRejectedResult).reason).toMatchObject({ status: 429, code: VIDEO_JOB_LIMIT });
    expect(await listVideoJobs(user)).toHaveLength(2);
    expect((await createVideoJob(user, "one", "x", { maxUnfinished: 1 }).catch((error) => error)).message).toMatch(
      /^You already have 1 video being generated\./,
    );
  });
});

describe("video job runner", () => {
  it("works a job to completed with the local renderer and stores the clip as the owner's file", async () => {
    const job = await createVideoJob(user, "sunrise over mountains", "local-renderer");
    const seen = new Set<string>();
    await runner(new LocalVideoRenderer(false)).start();
    const done = await waitFor(
      async () => {
        const current = (await getVideoJob(user, job.id))!;
        seen.add(current.status);
        return current;
      },
      (current) => current.status === "completed",
    );
    expect(done.progress).toBe(1);
    expect(done.url).toMatch(/^\/media\/[\w-]+$/);
    const mediaId = decodeURIComponent(done.url!.slice("/media/".length));
    const file = (await getMediaById(user, mediaId))!;
    expect(file).toMatchObject({ kind: "aivideo", contentType: "video/webm" });
    expect(file.name).toMatch(/^ai-video-sunrise-over-mountains-.*\.webm$/);
    expect((await fileStore.stat(mediaId))!.size).toBe(file.size);
    expect(await getMediaById(await newUserId(), mediaId)).toBeUndefined();
    expect(seen.has("processing") || seen.has("finishing")).toBe(true);
  });

  it("takes over a job whose runner stopped (stale heartbeat) and resumes from what was recorded", async () => {
    const job = await createVideoJob(user, "resume me", "scripted");
    const first = new ScriptedProvider("scripted", async (run) => {
      await run.report({ status: "processing", progress: 0.4, externalId: "remote-7" });
      return untilAborted(run.signal);
    });
    const a = runner(first);
    await a.start();
    await waitFor(
      () => getVideoJob(user, job.id),
      (current) => current!.progress === 0.4,
    );
    await a.stop(); // the process "dies": its claim stays in the row until the heartbeat goes stale

    const second = new ScriptedProvider("scripted", async (run) => {
      await run.report({ status: "finishing", progress: 0.95 });
      return { bytes: WEBM, contentType: "video/webm", extension: "webm" };
    });
    await runner(second).start();
    const done = await waitFor(
      () => getVideoJob(user, job.id),
      (current) => current!.status === "completed",
    );
    expect(done!.url).not.toBeNull();
    expect(second.runs).toHaveLength(1);
    expect(second.runs[0].resume).toEqual({ progress: 0.4, externalId: "remote-7" });
    const row = await db
      .selectFrom("video_jobs")
      .select(["attempts", "runner_id"])
      .where("id", "=", job.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 2, runner_id: null });
  });

  it("a job the database or the store interrupted is not failed: it is taken over and resumed", async () => {
    const job = await createVideoJob(user, "through an outage", "scripted");
    let runs = 0;
    const provider = new ScriptedProvider("scripted", async (run) => {
      if (++runs === 1) {
        await run.report({ status: "processing", progress: 0.4 });
        throw unavailable("storage", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
      }
      return { bytes: WEBM, contentType: "video/webm", extension: "webm" };
    });
    await runner(provider).start();
    const done = await waitFor(
      () => getVideoJob(user, job.id),
      (current) => current!.status === "completed",
    );
    expect(done!.error).toBeNull();
    expect(provider.runs.map((run) => run.resume.progress)).toEqual([0, 0.4]);
    const row = await db
      .selectFrom("video_jobs")
      .select(["attempts"])
      .where("id", "=", job.id)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(2);
  });

  it("backs off while its passes fail (at most 5 s apart) and resumes the work when the database is back", async () => {
    const failures: unknown[] = [];
    const logged = vi.spyOn(console, "error").mockImplementation((...args) => void failures.push(args[0]));
    const job = await createVideoJob(user, "after the outage", "scripted");
    const provider = new ScriptedProvider("scripted", async () => ({
      bytes: WEBM,
      contentType: "video/webm",
      extension: "webm",
    }));
    // The jobs' table out of reach: every pass fails (on SQLite a missing table stands in for the server being away).
    await sql`alter table video_jobs rename to video_jobs_away`.execute(db);
    try {
      const working = runner(provider, { tickMs: 50 });
      await working.start();
      await new Promise((resolve) => setTimeout(resolve, 1600));
      // Ticks every 50 ms would be 32 passes; backing off (50, 100, 200, 400, 800 ms…) it is a handful.
      const passes = failures.filter((first) => first === "[video-jobs] runner pass failed").length;
      expect(passes).toBeGreaterThanOrEqual(2);
      expect(passes).toBeLessThanOrEqual(7);
    } finally {
      await sql`alter table video_jobs_away rename to video_jobs`.execute(db);
      logged.mockRestore();
    }
    const started = Date.now();
    await waitFor(
      () => getVideoJob(user, job.id),
      (current) => current!.status === "completed",
    );
    expect(Date.now() - started).toBeLessThan(MAX_BACKOFF_MS + 5000);
  });

  it("never lets two runners work one job", async () => {
    const job = await createVideoJob(user, "only once", "scripted");
    let runs = 0;
    const provider = new ScriptedProvider("scripted", async (run) => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 200));
      await run.report({ status: "processing", progress: 0.5 });
      return { bytes: WEBM, contentType: "video/webm", extension: "webm" };
    });
    await Promise.all([runner(provider, { staleMs: 60_000 }).start(), runner(provider, { staleMs: 60_000 }).start()]);
    await waitFor(
      () => getVideoJob(user, job.id),
      (current) => current!.status === "completed",
    );
    expect(runs).toBe(1);
  });

  it("ends a job interrupted too often in error", async () => {
    const job = await createVideoJob(user, "crashy", "scripted");
    await db
      .updateTable("video_jobs")
      .set({ attempts: 3, status: "processing", runner_id: "dead", heartbeat_at: "2000-01-01T00:00:00.000Z" })
      .where("id", "=", job.id)
      .execute();
    const provider = new ScriptedProvider("scripted", async () => ({
      bytes: WEBM,
      contentType: "video/webm",
      extension: "webm",
    }));
    await runner(provider, { maxAttempts: 3 }).start();
    const done = await waitFor(
      () => getVideoJob(user, job.id),
      (current) => current!.status === "error",
    );
    expect(done!.error).toBe("The job was interrupted too many times");
    expect(provider.runs).toHaveLength(0);
  });

  it("times a job out, and turns a provider failure into error with a safe reason", async () => {
    const slow = await createVideoJob(user, "slow", "scripted");
    const provider = new ScriptedProvider("scripted", (run) => untilAborted(run.signal));
    await runner(provider, { jobTimeoutMs: 300 }).start();
    const timedOut = await waitFor(
      () => getVideoJob(user, slow.id),
      (current) => current!.status === "timeout",
    );
    expect(timedOut!.error).toBe("The video took too long to generate");
    await Promise.all(runners.splice(0).map((r) => r.stop()));

    const failing = await createVideoJob(user, "fails", "scripted");
    const broken = new ScriptedProvider("scripted", async () => {
      throw new ProviderError("video", "scripted", "rejected", "HTTP 400 secret provider text");
    });
    await runner(broken).start();
    const failed = await waitFor(
      () => getVideoJob(user, failing.id),
      (current) => current!.status === "error",
    );
    expect(failed!.error).toBe("The video provider refused the job");
    expect(failed!.url).toBeNull();
  });

  it("says queued for jobs waiting for a free slot", async () => {
    const provider = new ScriptedProvider("scripted", (run) => untilAborted(run.signal));
    const first = await createVideoJob(user, "first", "scripted");
    const second = await createVideoJob(user, "second", "scripted");
    // Both can share a millisecond (then the id decides the order): make "first" plainly the older.
    const earlier = new Date(Date.parse(first.created_at) - 1000).toISOString();
    await db.updateTable("video_jobs").set({ created_at: earlier }).where("id", "=", first.id).execute();
    await runner(provider, { maxActive: 1 }).start();
    await waitFor(
      () => getVideoJob(user, second.id),
      (current) => current!.status === "queued",
    );
    expect(provider.runs.map((run) => run.prompt)).toEqual(["first"]);
    expect((await getVideoJob(user, first.id))!.status).toBe("starting");
  });
});
