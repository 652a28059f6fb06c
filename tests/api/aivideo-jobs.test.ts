import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { startReplicateStub, type ReplicateStub } from "../support/replicate-stub";
import { api, newUser, signInWithForm } from "../support/api";
import { waitFor } from "../support/wait";

/**
 * Video jobs a person controls (docs/api.md#video-jobs-a-person-controls, decision 0075): the list,
 * cancel, retry and move, on a server whose video provider is a remote stub that never finishes, so
 * jobs stay processing as long as the test needs, and a stopped render shows as polls that stop.
 */
/** Replicate, played by a stub whose predictions answer "processing" forever (it counts their polls). */
let stub: ReplicateStub;
let server: RunningServer;

beforeAll(async () => {
  stub = await startReplicateStub();
  server = await startTestServer({
    ...stub.env("r8_jobs_test_token"),
    AI_TIMEOUT_SECONDS: "5",
    VIDEO_MAX_ACTIVE_JOBS: "4",
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await stub?.close();
});

const call = (pathname: string, init: { token?: string; json?: unknown; method?: string } = {}) =>
  api(pathname, { ...init, server: server.url });

interface Listed {
  id: string;
  status: string;
  progress: number;
  position: number | null;
  prompt: string;
  created_at: string;
  finished_at: string | null;
}
const list = async (token: string) => (await call("/api/aivideo", { token })).body as Listed[];
const byPrompt = (jobs: Listed[], prompt: string) => jobs.find((job) => job.prompt === prompt)!;
/** The prediction the stub made for a prompt: its polls show whether the job is still worked. */
const predictionOf = (prompt: string) => [...stub.prompts].find(([, asked]) => asked === prompt)?.[0];

describe("video jobs a person controls", () => {
  let alice: string;
  let bob: string;
  const ids: Record<string, string> = {};

  it("lists the person's jobs newest first, with the waiting ones' place in line", async () => {
    alice = (await newUser("jobs-a", server.url)).token;
    bob = (await newUser("jobs-b", server.url)).token;
    for (const prompt of ["one", "two", "three", "four"]) {
      const created = await call("/api/aivideo/", { token: alice, json: { prompt } });
      expect(created.status).toBe(202);
      ids[prompt] = created.body.id;
    }
    // The runner works two jobs at once: the first two are taken, the others wait in the person's order.
    const jobs = await waitFor(
      () => list(alice),
      (seen) => ["one", "two"].every((p) => byPrompt(seen, p).status === "processing"),
    );
    expect(jobs.map((job) => job.prompt)).toEqual(["four", "three", "two", "one"]);
    expect(byPrompt(jobs, "three")).toMatchObject({ id: ids.three, position: 1, finished_at: null, progress: 0 });
    expect(byPrompt(jobs, "four").position).toBe(2);
    expect(byPrompt(jobs, "one").position).toBeNull();
    expect(Date.parse(byPrompt(jobs, "one").created_at)).not.toBeNaN();
    expect(await list(bob)).toEqual([]);
    expect((await call("/api/aivideo")).status).toBe(401);
  });

  it("moves a waiting job before another or to the end; 400 for a bad `before`, 404 and 409 as they apply", async () => {
    const move = (id: string, body: unknown, token = alice) =>
      call(`/api/aivideo/${id}/move`, { token, method: "POST", json: body });
    expect((await move(ids.four, { before: ids.three })).status).toBe(204);
    let jobs = await list(alice);
    expect([byPrompt(jobs, "four").position, byPrompt(jobs, "three").position]).toEqual([1, 2]);
    expect((await move(ids.four, { before: null })).status).toBe(204);
    jobs = await list(alice);
    expect([byPrompt(jobs, "three").position, byPrompt(jobs, "four").position]).toEqual([1, 2]);

    for (const body of [
      {},
      { before: 5 },
      { before: "" },
      { before: ids.four },
      { before: ids.one },
      { before: "nope" },
    ]) {
      const refused = await move(ids.four, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.detail).toEqual(expect.any(String));
    }
    const processing = await move(ids.one, { before: null });
    expect(processing.status).toBe(409);
    expect(processing.body.detail).toEqual(expect.any(String));
    expect((await move(ids.four, { before: null }, bob)).status).toBe(404);
    expect((await call(`/api/aivideo/${ids.four}/move`, { token: alice })).status).toBe(405);
  });

  it("cancels a queued job, which frees its place under the active-job limit at once", async () => {
    const over = await call("/api/aivideo/", { token: alice, json: { prompt: "five" } });
    expect(over.status).toBe(429);
    expect((await call(`/api/aivideo/${ids.three}/cancel`, { token: bob, method: "POST" })).status).toBe(404);
    const cancelled = await call(`/api/aivideo/${ids.three}/cancel`, { token: alice, method: "POST" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ id: ids.three, status: "cancelled" });
    const status = await call(`/api/aivideo/status/${ids.three}`, { token: alice });
    expect(status.body).toMatchObject({ status: "cancelled", url: null, media_id: null });
    const five = await call("/api/aivideo/", { token: alice, json: { prompt: "five" } });
    expect(five.status).toBe(202);
    ids.five = five.body.id;
    const again = await call(`/api/aivideo/${ids.three}/cancel`, { token: alice, method: "POST" });
    expect(again.status).toBe(409);
    expect(again.body.detail).toEqual(expect.any(String));
  });

  it("cancels a processing job: its render stops (no more polls of the provider) and nothing is kept", async () => {
    const prediction = await waitFor(
      async () => predictionOf("one"),
      (id) => id !== undefined,
    );
    const cancelled = await call(`/api/aivideo/${ids.one}/cancel`, { token: alice, method: "POST" });
    expect(cancelled.status).toBe(200);
    // Within 2 s the runner has let go of it; then its polls stop.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const seen = stub.polls.get(prediction!) ?? 0;
    // The freed slot goes to the next waiting job.
    await waitFor(
      () => list(alice),
      (jobs) => byPrompt(jobs, "four").status === "processing",
    );
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(stub.polls.get(prediction!) ?? 0).toBe(seen);
    const jobs = await list(alice);
    expect(byPrompt(jobs, "one")).toMatchObject({ status: "cancelled", position: null });
    expect(byPrompt(jobs, "one").finished_at).not.toBeNull();
    expect((await call(`/api/aivideo/status/${ids.one}`, { token: alice })).body).toMatchObject({
      status: "cancelled",
      url: null,
      media_id: null,
    });
  });

  it("retries a cancelled job as a new job with its prompt, under the same limits; 409 otherwise", async () => {
    expect((await call(`/api/aivideo/${ids.two}/retry`, { token: alice, method: "POST" })).status).toBe(409);
    expect((await call(`/api/aivideo/${ids.one}/retry`, { token: bob, method: "POST" })).status).toBe(404);
    const retried = await call(`/api/aivideo/${ids.one}/retry`, { token: alice, method: "POST" });
    expect(retried.status).toBe(202);
    expect(retried.body).toEqual({ id: expect.any(String), status: "starting", progress: 0, url: null });
    expect(retried.body.id).not.toBe(ids.one);
    expect(retried.headers.get("location")).toBe(`/api/aivideo/status/${retried.body.id}`);
    const jobs = await list(alice);
    expect(jobs[0]).toMatchObject({ id: retried.body.id, prompt: "one" });
    // two, four, five and the retry are unfinished: the limit (4) is reached for a retry too.
    const refused = await call(`/api/aivideo/${ids.three}/retry`, { token: alice, method: "POST" });
    expect(refused.status).toBe(429);
    for (const job of await list(alice))
      if (!["cancelled", "completed", "error", "timeout"].includes(job.status))
        expect((await call(`/api/aivideo/${job.id}/cancel`, { token: alice, method: "POST" })).status).toBe(200);
    expect((await list(alice)).every((job) => job.status === "cancelled")).toBe(true);
  });

  it("does the same from the AI video screen's own forms: redirects without JavaScript, data with it, refusals in the page", async () => {
    const { email, token } = await newUser("jobs-screen", server.url);
    const cookie = await signInWithForm(email, server.url);
    const post = async (fields: Record<string, string>, search = "") => {
      const response = await fetch(`${server.url}/aivideo${search}`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: server.url },
        body: new URLSearchParams(fields),
        redirect: "manual",
      });
      await response.arrayBuffer();
      return response;
    };
    const started: string[] = [];
    for (const prompt of ["s1", "s2", "s3"]) {
      const created = await call("/api/aivideo/", { token, json: { prompt } });
      expect(created.status).toBe(202);
      started.push(created.body.id);
    }
    const [s1, s2, s3] = started;
    // Two are worked (the stub never finishes them), the third waits.
    await waitFor(
      () => list(token),
      (jobs) => ["s1", "s2"].every((p) => byPrompt(jobs, p).status === "processing"),
    );
    expect(byPrompt(await list(token), "s3").position).toBe(1);
    expect((await post({ intent: "move-job", id: s3, before: s3 })).status).toBe(400);
    const moved = await post({ intent: "move-job", id: s3, before: "" });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("/aivideo");
    expect((await post({ intent: "move-job", id: s1, before: "" })).status).toBe(409);
    const cancel = await post({ intent: "cancel-job", id: s1 }, `?job=${s1}`);
    expect(cancel.status).toBe(302);
    expect(cancel.headers.get("location")).toBe(`/aivideo?job=${s1}`);
    expect(byPrompt(await list(token), "s1").status).toBe("cancelled");
    const again = await post({ intent: "cancel-job", id: s1 });
    expect(again.status).toBe(409);
    expect((await post({ intent: "cancel-job", id: ids.two })).status).toBe(404);
    const retry = await post({ intent: "retry-job", id: s1 });
    expect(retry.status).toBe(302);
    expect(retry.headers.get("location")).toMatch(/^\/aivideo\?job=[\w-]+$/);
    const enhanced = await post({ intent: "cancel-job", id: s2, enhanced: "1" });
    expect(enhanced.status).toBe(200);
    expect(byPrompt(await list(token), "s2").status).toBe("cancelled");
    for (const id of [s3, ...(await list(token)).map((job) => job.id)])
      await call(`/api/aivideo/${id}/cancel`, { token, method: "POST" });
    expect((await list(token)).every((job) => job.status === "cancelled")).toBe(true);
  });
});

describe("a create the active-job limit refuses", () => {
  /** One unfinished job at a time and three AI requests a day: a refusal that counted would show at once. */
  let limited: RunningServer;
  beforeAll(async () => {
    limited = await startTestServer({
      ...stub.env("r8_jobs_test_token"),
      AI_TIMEOUT_SECONDS: "5",
      VIDEO_MAX_ACTIVE_JOBS: "1",
      AI_DAILY_LIMIT: "3",
    });
  }, 60_000);
  afterAll(async () => {
    await limited?.stop();
  });

  it("counts nothing toward the AI limits (its request row goes, from the minute and the day): only the creates that passed reach the daily cap", async () => {
    const { token } = await newUser("jobs-refund", limited.url);
    const create = (prompt: string) => api("/api/aivideo/", { token, json: { prompt }, server: limited.url });
    const cancel = async (id: string) =>
      expect((await api(`/api/aivideo/${id}/cancel`, { token, method: "POST", server: limited.url })).status).toBe(200);
    const first = await create("refund-1");
    expect(first.status).toBe(202);
    // Five refusals by the active-job limit: each says so, none says the daily cap (they would reach it at the 3rd).
    for (let i = 0; i < 5; i++) {
      const refused = await create(`refused-${i}`);
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toBe(
        "You already have 1 video being generated. Wait for one to finish, then try again.",
      );
    }
    // The two creates left of the day's three pass once the unfinished job is cancelled; the fourth is the cap's.
    await cancel(first.body.id);
    const second = await create("refund-2");
    expect(second.status).toBe(202);
    await cancel(second.body.id);
    const third = await create("refund-3");
    expect(third.status).toBe(202);
    await cancel(third.body.id);
    const capped = await create("refund-4");
    expect(capped.status).toBe(429);
    expect(capped.body.detail).toMatch(/^Too many AI requests today: at most 3 a day\./);
  });
});
