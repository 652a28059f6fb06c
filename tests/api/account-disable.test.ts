import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../support/admin";
import { mp4Bytes } from "../support/media";
import { startTestServer, type RunningServer } from "../support/server";
import { startReplicateStub, type ReplicateStub } from "../support/replicate-stub";
import { api, newUser } from "../support/api";
import { apiLogin } from "../support/client.mjs";
import { waitFor } from "../support/wait";

/**
 * Decision 0051: `npm run admin -- disable` stops everything the person set
 * going. Their unfinished video jobs end as "error" with a clear reason and the render in progress stops
 * (the remote provider, a local stub that is never done, is no longer polled); their signed video links
 * stop at once, because the link's owner is checked when it is used.
 */
const CANCELLED = "Cancelled: the account was disabled.";
/** Replicate, played by a stub whose predictions answer "processing" forever (it counts their polls). */
let stub: ReplicateStub;
let server: RunningServer;

beforeAll(async () => {
  stub = await startReplicateStub();
  server = await startTestServer({ ...stub.env("r8_disable_test_token"), AI_TIMEOUT_SECONDS: "5" });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await stub?.close();
});

const call = (pathname: string, init: { token?: string; json?: unknown; raw?: BodyInit; method?: string } = {}) =>
  api(pathname, { ...init, server: server.url });
const admin = (args: string[]) => runAdmin(args, { dataDir: server.dataDir });

async function person(prefix: string) {
  const { email, token } = await newUser(prefix, server.url);
  return { email, token };
}

async function login(email: string): Promise<string> {
  const answer = await apiLogin(server.url, email);
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

const totalPolls = () => stub.totalPolls();

describe("disable stops everything the person set going", { timeout: 180_000 }, () => {
  it("cancels their unfinished video jobs with a clear reason, and the renders in progress stop", async () => {
    const someone = await person("disable-jobs");
    const jobs: string[] = [];
    for (const prompt of ["a slow sunrise", "a slow sunset", "a slow tide"]) {
      const submitted = await call("/api/aivideo", { json: { prompt }, token: someone.token });
      expect(submitted.status).toBe(202);
      jobs.push(submitted.body.id);
    }
    // The runner works two at once (the provider polled for each), the third waits.
    await waitFor(
      () => stub.polls.size,
      (size) => size >= 2,
      60_000,
    );
    const statuses = await Promise.all(
      jobs.map(async (id) => (await call(`/api/aivideo/status/${id}`, { token: someone.token })).body.status),
    );
    for (const status of statuses) expect(["starting", "queued", "processing"]).toContain(status);

    const run = await admin(["disable", someone.email]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      `Disabled ${someone.email}: login is refused, 1 session ended, 0 API tokens revoked and 3 video jobs cancelled.\n`,
    );

    // The renders stop: within a bound, the provider goes unpolled for longer than two of its poll intervals.
    let seen = totalPolls();
    let quietSince = Date.now();
    await waitFor(
      () => {
        if (totalPolls() !== seen) [seen, quietSince] = [totalPolls(), Date.now()];
        return Date.now() - quietSince;
      },
      (quiet) => quiet > 5_000,
      60_000,
    );

    // Enabled again, the person sees each job ended with the reason, and none resumes.
    expect((await admin(["enable", someone.email])).code).toBe(0);
    const token = await login(someone.email);
    for (const id of jobs) {
      const status = await call(`/api/aivideo/status/${id}`, { token });
      expect(status).toMatchObject({ status: 200, body: { status: "error", url: null, error: CANCELLED } });
    }
    const after = totalPolls();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(totalPolls()).toBe(after);
  });

  it("their signed video links stop at once: 403 with a detail", async () => {
    const someone = await person("disable-links");
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(mp4Bytes(2000))], { type: "video/mp4" }), "shared.mp4");
    expect((await call("/api/videos/upload", { raw: form, token: someone.token })).status).toBe(201);
    const signed = await call("/api/videos/signed_url?filename=shared.mov", { token: someone.token });
    expect(signed.status).toBe(200);
    const link = `${server.url}${signed.body.url}`;
    const before = await fetch(link);
    expect(before.status).toBe(200);
    await before.arrayBuffer();

    expect((await admin(["disable", someone.email])).code).toBe(0);
    for (const method of ["GET", "HEAD"]) {
      const refused = await fetch(link, { method, headers: { Range: "bytes=0-3" } });
      expect(refused.status).toBe(403);
      if (method === "GET")
        expect(await refused.json()).toEqual({ detail: "This link no longer works: its owner's account is disabled." });
    }
  });
});
