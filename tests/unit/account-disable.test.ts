import { afterEach, expect, it } from "vitest";
import type { RenderedVideo, VideoJobRun, VideoProvider } from "~/ai/video/video.server";
import { db } from "~/lib/db/db.server";
import { newId } from "~/lib/db/ids.server";
import { createApiToken, listApiTokens, revokeAllApiTokens, userOfApiToken } from "~/models/accounts/api-token.server";
import { ACCOUNT_DISABLED_MESSAGE } from "~/models/accounts/credentials.server";
import { disablePerson, enablePerson } from "~/models/operators/operator.server";
import { accountState, createUser } from "~/models/accounts/user.server";
import { CANCELLED_ACCOUNT_DISABLED, createVideoJob, getVideoJob } from "~/models/video-jobs/video-job.server";
import { finishJob } from "~/models/video-jobs/video-job-queue.server";
import { changePassword } from "~/services/accounts/account.server";
import { VideoJobRunner } from "~/services/video-jobs/video-job-runner.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";
import { waitFor } from "../support/wait";

/**
 * Decision 0051 on both engines (docs/decisions/0051): `disable` revokes the person's
 * personal API tokens for good (enable brings none back, and one made while the disable runs is refused),
 * cancels their unfinished video jobs (a render in progress on any runner stops, a clip finished meanwhile
 * is discarded), and their account state is what a signed link checks; a password change revokes the
 * tokens unless asked not to.
 */
const WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
  Buffer.from("\x42\x82\x84webm"),
  Buffer.alloc(200, 7),
]);
const PASSWORD = "password123";

/** A provider whose run the test drives: it reports progress every few ms until `release` lets it return its clip. */
class HeldProvider implements VideoProvider {
  readonly id = "held-provider";
  readonly offline = true;
  started = false;
  aborted = false;
  private release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  constructor(private readonly reportWhileHeld: boolean) {}
  async run(job: VideoJobRun): Promise<RenderedVideo> {
    this.started = true;
    job.signal.addEventListener("abort", () => (this.aborted = true));
    await job.report({ status: "processing", progress: 0.3 });
    let open = true;
    void this.released.then(() => (open = false));
    while (open) {
      if (this.reportWhileHeld) await job.report({ status: "processing", progress: 0.4 });
      if (job.signal.aborted) throw job.signal.reason;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { bytes: WEBM, contentType: "video/webm", extension: "webm" };
  }
  finish() {
    this.release();
  }
}

const runners: VideoJobRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
});

const filesOf = async (userId: string) =>
  (await db.selectFrom("media_files").select("id").where("user_id", "=", userId).execute()).length;

describeOnEachEngine("disable stops everything,", () => {
  it("revokes the person's personal API tokens for good: enable brings none back", async () => {
    const userId = await newUserId();
    const other = await newUserId();
    const tokens = [await createApiToken(userId, "backup"), await createApiToken(userId, "ci")];
    const kept = await createApiToken(other, "someone else's");
    expect(await disablePerson(userId)).toEqual({ sessions: 0, tokens: 2, videoJobs: 0 });
    for (const { token } of tokens) expect(await userOfApiToken(token)).toBeNull();
    await enablePerson(userId);
    for (const { token } of tokens) expect(await userOfApiToken(token)).toBeNull();
    expect(await listApiTokens(userId)).toEqual([]);
    // Only theirs: another person's token works on.
    expect((await userOfApiToken(kept.token))?.id).toBe(other);
    // Enabled again, they make new ones.
    const fresh = await createApiToken(userId, "new");
    expect((await userOfApiToken(fresh.token))?.id).toBe(userId);
  });

  it("a token made after the disable (a request let in before it) is refused, so enable cannot revive one", async () => {
    const userId = await newUserId();
    await disablePerson(userId);
    await expect(createApiToken(userId, "late")).rejects.toMatchObject({
      status: 403,
      detail: ACCOUNT_DISABLED_MESSAGE,
    });
    await enablePerson(userId);
    expect(await listApiTokens(userId)).toEqual([]);
  });

  it("revokeAllApiTokens ends every token of the person and counts them", async () => {
    const userId = await newUserId();
    for (const name of ["a", "b", "c"]) await createApiToken(userId, name);
    expect(await revokeAllApiTokens(userId)).toBe(3);
    expect(await revokeAllApiTokens(userId)).toBe(0);
  });

  it("cancels the person's unfinished video jobs with a clear reason and leaves finished ones and other people's alone", async () => {
    const userId = await newUserId();
    const other = await newUserId();
    const waiting = await createVideoJob(userId, "a queued clip", "nobody-runs-this");
    const finished = await createVideoJob(userId, "a finished clip", "nobody-runs-this");
    expect(await finishJob(finished.id, null, { status: "error", error: "The video could not be generated" })).toBe(
      true,
    );
    const theirs = await createVideoJob(other, "someone else's clip", "nobody-runs-this");
    expect(await disablePerson(userId)).toMatchObject({ videoJobs: 1 });
    expect(await getVideoJob(userId, waiting.id)).toMatchObject({
      status: "error",
      error: CANCELLED_ACCOUNT_DISABLED,
      url: null,
    });
    expect(await getVideoJob(userId, finished.id)).toMatchObject({
      status: "error",
      error: "The video could not be generated",
    });
    expect(await getVideoJob(other, theirs.id)).toMatchObject({ status: "starting", error: null });
    // Enabled again, the cancelled job stays cancelled.
    await enablePerson(userId);
    expect((await getVideoJob(userId, waiting.id))?.status).toBe("error");
  });

  it("refuses a new video job once the person is disabled (a request let in before the disable)", async () => {
    const userId = await newUserId();
    await disablePerson(userId);
    await expect(createVideoJob(userId, "late", "local-renderer", { maxUnfinished: 3 })).rejects.toMatchObject({
      status: 403,
      detail: ACCOUNT_DISABLED_MESSAGE,
    });
    expect(await db.selectFrom("video_jobs").select("id").where("user_id", "=", userId).execute()).toEqual([]);
  });

  it("a render in progress stops at its next progress report, and the job stays cancelled", async () => {
    const userId = await newUserId();
    const provider = new HeldProvider(true);
    const runner = new VideoJobRunner(provider, { tickMs: 50, staleMs: 300 });
    runners.push(runner);
    const job = await createVideoJob(userId, "a long clip", provider.id);
    await runner.start();
    await waitFor(
      () => getVideoJob(userId, job.id),
      (current) => current?.status === "processing",
    );
    await disablePerson(userId);
    await waitFor(() => provider.aborted, Boolean);
    // Several runner passes later it is still cancelled: nobody took it up again.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await getVideoJob(userId, job.id)).toMatchObject({ status: "error", error: CANCELLED_ACCOUNT_DISABLED });
    expect(await filesOf(userId)).toBe(0);
  });

  it("a clip finished after the disable is discarded, not kept as the person's file", async () => {
    const userId = await newUserId();
    const provider = new HeldProvider(false);
    const runner = new VideoJobRunner(provider, { tickMs: 50, staleMs: 60_000 });
    runners.push(runner);
    const job = await createVideoJob(userId, "a clip that finishes late", provider.id);
    await runner.start();
    await waitFor(
      () => getVideoJob(userId, job.id),
      (current) => current?.status === "processing",
    );
    await disablePerson(userId);
    provider.finish();
    // The runner's own work ends (the clip stored, the job found cancelled, the clip deleted) before it is stopped.
    await waitFor(
      () => (runner as unknown as { active: Map<string, unknown> }).active.size,
      (size) => size === 0,
    );
    await runner.stop();
    expect(await getVideoJob(userId, job.id)).toMatchObject({
      status: "error",
      error: CANCELLED_ACCOUNT_DISABLED,
      media_id: null,
    });
    expect(await filesOf(userId)).toBe(0);
  });

  it("accountState says what a signed link's owner is: active, disabled or missing", async () => {
    const userId = await newUserId();
    expect(await accountState(userId)).toBe("active");
    await disablePerson(userId);
    expect(await accountState(userId)).toBe("disabled");
    await enablePerson(userId);
    expect(await accountState(userId)).toBe("active");
    expect(await accountState(newId())).toBe("missing");
  });

  it("a password change revokes the person's API tokens by default, and keeps them with revoke_tokens false", async () => {
    const user = await createUser(`disable-${newId()}@example.com`, PASSWORD, "first");
    const caller = { user, sessionId: null };
    const first = await createApiToken(user.id, "script");
    await createApiToken(user.id, "another");
    expect(
      await changePassword(
        caller,
        { current_password: PASSWORD, new_password: "second password", revoke_tokens: false },
        "127.0.0.1",
      ),
    ).toEqual({
      sessionsEnded: 0,
      tokensRevoked: 0,
      sharesRevoked: 0,
    });
    expect((await userOfApiToken(first.token))?.id).toBe(user.id);
    expect(
      await changePassword(
        caller,
        { current_password: "second password", new_password: "third password" },
        "127.0.0.1",
      ),
    ).toEqual({
      sessionsEnded: 0,
      tokensRevoked: 2,
      sharesRevoked: 0,
    });
    expect(await userOfApiToken(first.token)).toBeNull();
    await expect(
      changePassword(
        caller,
        { current_password: "third password", new_password: "fourth password", revoke_tokens: "yes" },
        "127.0.0.1",
      ),
    ).rejects.toMatchObject({
      status: 400,
      code: "revoke_tokens",
    });
  });
});
