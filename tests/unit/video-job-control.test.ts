import { afterEach, beforeEach, expect, it } from "vitest";
import type { RenderedVideo, VideoJobRun, VideoProvider } from "~/ai/video/video.server";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { claimJob, claimJobs, findClaimableJobs, heartbeat } from "~/models/video-jobs/video-job-queue.server";
import {
  cancelVideoJob,
  listVideoJobsWithPlace,
  moveVideoJob,
  retryablePrompt,
} from "~/models/video-jobs/video-job-control.server";
import { createVideoJob, getVideoJob, VIDEO_JOB_LIMIT } from "~/models/video-jobs/video-job.server";
import { VideoJobRunner } from "~/services/video-jobs/video-job-runner.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";
import { waitFor } from "../support/wait";

const WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
  Buffer.from("\x42\x82\x84webm"),
  Buffer.alloc(64, 7),
]);
const clip: RenderedVideo = { bytes: WEBM, contentType: "video/webm", extension: "webm" };

/** A provider whose runs the test drives. */
class ScriptedProvider implements VideoProvider {
  readonly offline = true;
  readonly id = "scripted";
  readonly runs: VideoJobRun[] = [];
  constructor(private readonly script: (job: VideoJobRun) => Promise<RenderedVideo>) {}
  run(job: VideoJobRun) {
    this.runs.push(job);
    return this.script(job);
  }
}

const runners: VideoJobRunner[] = [];
function runner(provider: VideoProvider) {
  // The production tick (1 s): a cancel must stop the render within 2 s of it.
  const created = new VideoJobRunner(provider, { tickMs: 1000, staleMs: 8000, maxActive: 1 });
  runners.push(created);
  return created;
}

const mediaCount = async (userId: string) =>
  Number(
    (
      await db
        .selectFrom("media_files")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A job created a few ms after the previous one, so "oldest first" is well defined. */
async function create(owner: string, prompt: string) {
  const job = await createVideoJob(owner, prompt, "s");
  await new Promise((resolve) => setTimeout(resolve, 3));
  return job;
}

const line = async (userId: string) =>
  (await listVideoJobsWithPlace(userId))
    .filter((job) => job.position !== null)
    .sort((a, b) => a.position! - b.position!)
    .map((job) => job.prompt);

describeOnEachEngine("video job control", () => {
  let user: string;
  beforeEach(async () => {
    await db.deleteFrom("video_jobs").execute();
    user = await newUserId();
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });

  it("cancels a queued job, which then stops counting toward the active-job limit at once", async () => {
    const limited = (prompt: string) => createVideoJob(user, prompt, "scripted", { maxUnfinished: 1 });
    const job = await limited("a lighthouse");
    await expect(limited("another")).rejects.toMatchObject({ status: 429, code: VIDEO_JOB_LIMIT });
    await cancelVideoJob(user, job.id);
    const cancelled = (await getVideoJob(user, job.id))!;
    expect(cancelled.status).toBe("cancelled");
    const [listed] = await listVideoJobsWithPlace(user);
    expect(listed).toMatchObject({ id: job.id, status: "cancelled", position: null, url: null });
    expect(listed.finished_at).not.toBeNull();
    expect((await limited("another")).status).toBe("starting");
    // Nobody claims a cancelled job.
    expect((await findClaimableJobs(new Date().toISOString(), 10)).map((j) => j.id)).not.toContain(job.id);
  });

  it("refuses to cancel an ended job (409) and hides another person's job (404)", async () => {
    const job = await createVideoJob(user, "done", "scripted");
    await db.updateTable("video_jobs").set({ status: "completed" }).where("id", "=", job.id).execute();
    const ended = await cancelVideoJob(user, job.id).catch((error) => error);
    expect(ended).toBeInstanceOf(DomainError);
    expect(ended.status).toBe(409);
    const queued = await createVideoJob(user, "waiting", "scripted");
    await expect(cancelVideoJob(await newUserId(), queued.id)).rejects.toMatchObject({ status: 404 });
    expect((await getVideoJob(user, queued.id))!.status).toBe("starting");
    await cancelVideoJob(user, queued.id);
    await expect(cancelVideoJob(user, queued.id)).rejects.toMatchObject({ status: 409 });
  });

  it("stops a processing job's render through the heartbeat within 2 s, and keeps nothing", async () => {
    let aborted: number | null = null;
    const provider = new ScriptedProvider(async (job) => {
      await job.report({ status: "processing", progress: 0.2 });
      job.signal.addEventListener("abort", () => (aborted = Date.now()));
      // A render that ignores the abort and hands in its clip anyway: it must not be kept.
      await waitFor(
        () => aborted,
        (at) => at !== null,
        10_000,
      );
      return clip;
    });
    const job = await createVideoJob(user, "a slow render", "scripted");
    await runner(provider).start();
    await waitFor(
      async () => (await getVideoJob(user, job.id))!.status,
      (status) => status === "processing",
    );
    const cancelledAt = Date.now();
    await cancelVideoJob(user, job.id);
    await waitFor(
      () => aborted,
      (at) => at !== null,
      5000,
    );
    expect(aborted! - cancelledAt).toBeLessThan(2000);
    expect(provider.runs[0].signal.aborted).toBe(true);
    // Whatever the render handed in after the abort is not stored.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mediaCount(user)).toBe(0);
    expect(await getVideoJob(user, job.id)).toMatchObject({ status: "cancelled", url: null, media_id: null });
  });

  it("tells a runner's heartbeat which of its jobs it no longer holds", async () => {
    const [kept, cancelled] = [await createVideoJob(user, "kept", "s"), await createVideoJob(user, "gone", "s")];
    const claimed = await claimJobs("runner-a", new Date().toISOString(), 10);
    expect(claimed.map((j) => j.id).sort()).toEqual([kept.id, cancelled.id].sort());
    expect(await heartbeat("runner-a", [kept.id, cancelled.id])).toEqual([]);
    await cancelVideoJob(user, cancelled.id);
    expect(await heartbeat("runner-a", [kept.id, cancelled.id])).toEqual([cancelled.id]);
  });

  it("retries only failed, timed-out or cancelled jobs, with their prompt", async () => {
    const job = await createVideoJob(user, "a red kite", "s");
    await expect(retryablePrompt(user, job.id)).rejects.toMatchObject({ status: 409 });
    for (const status of ["error", "timeout", "cancelled"]) {
      await db.updateTable("video_jobs").set({ status }).where("id", "=", job.id).execute();
      expect(await retryablePrompt(user, job.id)).toBe("a red kite");
    }
    await db.updateTable("video_jobs").set({ status: "completed" }).where("id", "=", job.id).execute();
    await expect(retryablePrompt(user, job.id)).rejects.toMatchObject({ status: 409 });
    await expect(retryablePrompt(await newUserId(), job.id)).rejects.toMatchObject({ status: 404 });
  });

  it("moves a waiting job before another or to the end, and refuses a bad `before`", async () => {
    const [a, b, c] = [
      await createVideoJob(user, "a", "s"),
      await createVideoJob(user, "b", "s"),
      await createVideoJob(user, "c", "s"),
    ];
    expect(await line(user)).toEqual(["a", "b", "c"]);
    await moveVideoJob(user, c.id, a.id);
    expect(await line(user)).toEqual(["c", "a", "b"]);
    await moveVideoJob(user, c.id, null);
    expect(await line(user)).toEqual(["a", "b", "c"]);
    await moveVideoJob(user, b.id, a.id);
    expect(await line(user)).toEqual(["b", "a", "c"]);
    // A new job goes last.
    await createVideoJob(user, "d", "s");
    expect(await line(user)).toEqual(["b", "a", "c", "d"]);

    const other = await newUserId();
    const theirs = await createVideoJob(other, "theirs", "s");
    await expect(moveVideoJob(user, a.id, a.id)).rejects.toMatchObject({ status: 400 });
    await expect(moveVideoJob(user, a.id, theirs.id)).rejects.toMatchObject({ status: 400 });
    await expect(moveVideoJob(user, a.id, "no-such-job")).rejects.toMatchObject({ status: 400 });
    await expect(moveVideoJob(other, a.id, null)).rejects.toMatchObject({ status: 404 });
    await cancelVideoJob(user, c.id);
    await expect(moveVideoJob(user, a.id, c.id)).rejects.toMatchObject({ status: 400 });
    await expect(moveVideoJob(user, c.id, null)).rejects.toMatchObject({ status: 409 });
    expect(await line(user)).toEqual(["b", "a", "d"]);
  });

  it("claims in each person's own order, round-robin across people, the longest-unserved person first", async () => {
    const bob = await newUserId();
    const mine = [await create(user, "u1"), await create(user, "u2")];
    await create(user, "u3");
    const bobs = [await create(bob, "b1"), await create(bob, "b2")];
    // Claimed jobs hold a live heartbeat: only the waiting ones are claimable.
    const longAgo = new Date(Date.now() - 3_600_000).toISOString();
    const order = async () => (await findClaimableJobs(longAgo, 10)).map((job) => job.prompt);
    // Nobody served yet: the first jobs of each, oldest person first, then the seconds.
    expect(await order()).toEqual(["u1", "b1", "u2", "b2", "u3"]);
    // The person's own order decides which of theirs goes first.
    await moveVideoJob(user, mine[1].id, mine[0].id);
    expect(await order()).toEqual(["u2", "b1", "u1", "b2", "u3"]);
    // Once this person got a job, the other one is served next.
    const [first] = await findClaimableJobs(longAgo, 1);
    expect(await claimJob(first, "runner-a")).toBe(true);
    expect(await order()).toEqual(["b1", "u1", "b2", "u3"]);
    await new Promise((resolve) => setTimeout(resolve, 3));
    expect((await claimJobs("runner-b", longAgo, 1)).map((job) => job.id)).toEqual([bobs[0].id]);
    // Both served; this person's last claim is the older one now.
    expect(await order()).toEqual(["u1", "b2", "u3"]);
  });
});
