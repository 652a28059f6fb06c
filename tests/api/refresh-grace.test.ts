import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresTestServer } from "../support/postgres";
import { startTestServer, type RunningServer } from "../support/server";
import { postgresAvailable, startPgCluster, type PgCluster } from "../harness/pg-cluster.mjs";
import { baseUrl, newUser } from "../support/api";

/**
 * POST /api/auth/refresh's grace window against the built server (decision 0015): found
 * from outside, ten parallel refreshes with one token gave one 200 and nine 401 and then logged the
 * person out. Within the window (10 s) the spent token answers with the same pair, on every instance
 * sharing the database; after it, reuse revokes the family.
 */

const GRACE_MS = 10_000;

async function post(base: string, path: string, json: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
const get = async (base: string, path: string, token: string) =>
  (await fetch(base + path, { headers: { Authorization: `Bearer ${token}` } })).status;
const refresh = (base: string, refreshToken: string) =>
  post(base, "/api/auth/refresh", { refresh_token: refreshToken });

describe("POST /api/auth/refresh: the grace window", () => {
  it("ten parallel refreshes with the same token by the body: ten 200s with one identical pair, and the pair works", async () => {
    const { refreshToken } = await newUser("grace-ten");
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(baseUrl(), refreshToken)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const pair = answers[0].body;
    expect(pair).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: "bearer" });
    expect(pair.refresh_token).not.toBe(refreshToken);
    for (const answer of answers) expect(answer.body).toEqual(pair);

    expect(await get(baseUrl(), "/api/auth/me", pair.access_token)).toBe(200);
    const next = await refresh(baseUrl(), pair.refresh_token);
    expect(next.status).toBe(200);
    expect(await get(baseUrl(), "/api/auth/me", next.body.access_token)).toBe(200);
  });

  it("a retry after a lost answer, within the window: the same pair", async () => {
    const { refreshToken } = await newUser("grace-retry");
    const first = await refresh(baseUrl(), refreshToken);
    expect(first.status).toBe(200);
    const retry = await refresh(baseUrl(), refreshToken);
    expect(retry).toEqual(first);
    expect(await get(baseUrl(), "/api/auth/me", retry.body.access_token)).toBe(200);
  });

  it(
    "after the window, the spent token is reuse: 401, and the family (successor and access tokens) is revoked",
    async () => {
      const { token, refreshToken } = await newUser("grace-after");
      const rotated = await refresh(baseUrl(), refreshToken);
      expect(rotated.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, GRACE_MS + 1_500));
      const replay = await refresh(baseUrl(), refreshToken);
      expect(replay).toMatchObject({
        status: 401,
        body: { detail: "Refresh token already used; please log in again" },
      });
      expect((await refresh(baseUrl(), rotated.body.refresh_token)).status).toBe(401);
      expect(await get(baseUrl(), "/api/auth/me", token)).toBe(401);
      expect(await get(baseUrl(), "/api/auth/me", rotated.body.access_token)).toBe(401);
    },
    GRACE_MS + 20_000,
  );
});

/** Two instances on one database, each refreshing the same token five times at once. */
async function sameTokenOnTwoInstances(a: RunningServer, b: RunningServer) {
  const login = await newUser("grace", a.url);
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => refresh(i % 2 ? b.url : a.url, login.refreshToken)),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
  const pair = answers[0].body;
  for (const answer of answers) expect(answer.body).toEqual(pair);
  // The pair works on both; its refresh token rotates on either.
  expect(await get(a.url, "/api/auth/me", pair.access_token)).toBe(200);
  expect(await get(b.url, "/api/auth/me", pair.access_token)).toBe(200);
  const next = await refresh(b.url, pair.refresh_token);
  expect(next.status).toBe(200);
  // And a retry of that one on the other instance, within the window, gets the same pair.
  expect(await refresh(a.url, pair.refresh_token)).toEqual(next);
}

// One DATA_DIR: one SQLite file in WAL mode (two processes), or, under `npm run test:pg`, one PostgreSQL database.
describe("two instances sharing one database (one DATA_DIR)", () => {
  let a: RunningServer | undefined;
  let b: RunningServer | undefined;
  beforeAll(async () => {
    a = await startTestServer();
    b = await startTestServer({ DATA_DIR: a.dataDir });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("the same token refreshed on both in parallel: the same pair from both", async () => {
    await sameTokenOnTwoInstances(a!, b!);
  });
});

// Under plain `npm test` (SQLite), PostgreSQL too when its binaries are installed; `npm run test:pg` has the block above for it.
if (postgresAvailable() && !postgresTestServer())
  describe("two instances sharing one PostgreSQL database (throwaway cluster)", () => {
    let cluster: PgCluster | undefined;
    let a: RunningServer | undefined;
    let b: RunningServer | undefined;
    beforeAll(async () => {
      cluster = await startPgCluster({ database: "studio_refresh_grace_api" });
      a = await startTestServer({ DATABASE_URL: cluster.url });
      b = await startTestServer({ DATABASE_URL: cluster.url });
    });
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await cluster?.stop();
    });

    it("the same token refreshed on both in parallel: the same pair from both", async () => {
      const health = await (await fetch(`${a!.url}/api/health`)).json();
      expect(health.database_engine).toBe("postgres");
      await sameTokenOnTwoInstances(a!, b!);
    });
  });
