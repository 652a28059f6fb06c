import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { startTestServer, type RunningServer } from "../support/server";
import { newUser } from "../support/api";

/**
 * Jobs are rows: a server stopped in the middle of a job leaves it unfinished in the database, and
 * the next server on the same data takes it over (once the old heartbeat is stale) and finishes it.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-restart-"));
const servers: RunningServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function json(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

it("a video job interrupted by a server restart resumes and completes", async () => {
  const first = await startTestServer({ DATA_DIR: dataDir });
  servers.push(first);
  const headers = { "Content-Type": "application/json" };
  const auth = { Authorization: `Bearer ${(await newUser("restart", first.url)).token}` };

  const created = await json(`${first.url}/api/aivideo/`, {
    method: "POST",
    headers: { ...headers, ...auth },
    body: JSON.stringify({ prompt: "survive a restart" }),
  });
  expect(created.status).toBe(202);
  const id = created.body.id;

  // Mid-job: processing, partly done.
  let before: any;
  do {
    await new Promise((resolve) => setTimeout(resolve, 200));
    before = (await json(`${first.url}/api/aivideo/status/${id}`, { headers: auth })).body;
  } while (before.status !== "processing" || before.progress < 0.2);
  await first.stop();

  const second = await startTestServer({ DATA_DIR: dataDir });
  servers.push(second);
  // The same session secret and database: the token still works on the new server.
  const afterRestart = (await json(`${second.url}/api/aivideo/status/${id}`, { headers: auth })).body;
  expect(["processing", "finishing", "completed"]).toContain(afterRestart.status);
  expect(afterRestart.progress).toBeGreaterThanOrEqual(before.progress);

  let status: any;
  const started = Date.now();
  do {
    await new Promise((resolve) => setTimeout(resolve, 500));
    status = (await json(`${second.url}/api/aivideo/status/${id}`, { headers: auth })).body;
  } while (status.status !== "completed" && status.status !== "error" && Date.now() - started < 120_000);
  expect(status.status).toBe("completed");
  expect(status.progress).toBe(1);
  const clip = await fetch(second.url + status.url, { headers: auth });
  expect(clip.status).toBe(200);
  expect(clip.headers.get("content-type")).toBe("video/webm");
}, 300_000);
