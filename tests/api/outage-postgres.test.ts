import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable, startPgCluster, type PgCluster } from "../harness/pg-cluster.mjs";
import { startTestServer, type RunningServer } from "../support/server";
import { newUser, signInWithForm } from "../support/api";

/**
 * Decision 0049 on a real PostgreSQL (a throwaway cluster of this file's own, so it can be stopped): the
 * server's connections are killed from the server side (pg_terminate_backend) while requests and a
 * transaction are in flight, then the cluster is stopped and started again. The process stays up;
 * what cannot reach the database answers 503 with Retry-After (JSON under /api, the error page with
 * "Try again" on screens), never a 500; health says "degraded"; within 10 s of the database's
 * return everything serves again. Runs wherever PostgreSQL is installed (`npm test` and `npm run
 * test:pg` in CI), always on its own cluster: the suite's shared one is never stopped.
 */
const DATABASE_DETAIL = "The studio can't reach its database right now. Please try again in a moment.";

/** pg_ctl on the cluster's folder, as the user that owns it (PostgreSQL will not run as root). */
function pgCtl(cluster: PgCluster, args: string[]) {
  const { uid, gid } = fs.statSync(cluster.dataDir);
  const root = path.dirname(cluster.dataDir);
  const result = spawnSync(path.join(cluster.bindir, "pg_ctl"), ["-D", cluster.dataDir, "-w", "-t", "60", ...args], {
    cwd: root,
    env: { ...process.env, HOME: root, LC_ALL: "C", PGDATA: cluster.dataDir },
    encoding: "utf8",
    ...(process.getuid?.() === 0 ? { uid, gid } : {}),
  });
  if (result.status !== 0) throw new Error(`pg_ctl ${args.join(" ")} failed: ${result.stdout}${result.stderr}`);
}

/** Polls `check` until it holds, for at most `ms`; resolves how long it took. */
async function until(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return Date.now() - started;
}

const available = postgresAvailable();
if (!available)
  console.warn(
    "[outage-postgres.test] PostgreSQL is not installed: the outage tests on PostgreSQL are NOT RUN here (CI installs it)",
  );

describe.runIf(available)("PostgreSQL goes away under the server (throwaway cluster)", () => {
  let cluster: PgCluster;
  let server: RunningServer;
  let token: string;
  let email: string;
  let cookie: string;
  /** A live share link's path, /s/{token}. */
  let sharePath: string;

  const call = (urlPath: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    headers.set("Authorization", `Bearer ${token}`);
    if (init.json === undefined) return fetch(server.url + urlPath, { ...init, headers });
    headers.set("Content-Type", "application/json");
    return fetch(server.url + urlPath, { method: "POST", ...init, headers, body: JSON.stringify(init.json) });
  };
  const killServerConnections = async () => {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        "select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = 'creative-ai-studio' and pid <> pg_backend_pid()",
      );
      return rows.length;
    } finally {
      await admin.end();
    }
  };

  beforeAll(async () => {
    cluster = await startPgCluster({ database: "outage" });
    server = await startTestServer({ DATABASE_URL: cluster.url });
    ({ email, token } = await newUser("pg-outage", server.url));
    cookie = await signInWithForm(email, server.url);
    const item = await (await call("/api/content", { json: { title: "Shared before the outage", body: "x" } })).json();
    const link = await (await call("/api/shares", { json: { kind: "content", id: item.id } })).json();
    sharePath = new URL(link.url).pathname;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await cluster?.stop();
  });

  it("connections killed mid-request and mid-transaction: 503s at most, no 500, the process stays up and the pool reconnects", async () => {
    // A transaction held open by the app: its insert waits on the person's row, which we lock.
    const blocker = new pg.Client({ connectionString: cluster.url });
    blocker.on("error", () => {});
    await blocker.connect();
    await blocker.query("begin");
    await blocker.query("select id from users where email = $1 for update", [email]);
    const blocked = call("/api/content", { json: { title: "Written while the database restarts", body: "x" } });
    // Requests in flight beside it.
    let stop = false;
    const statuses: number[] = [];
    const load = Promise.allSettled(
      Array.from({ length: 4 }, async () => {
        while (!stop) statuses.push((await call("/api/content")).status);
      }),
    );
    try {
      await until(
        5000,
        async () => (await blocker.query("select count(*)::int as n from pg_locks where not granted")).rows[0].n > 0,
      );
      expect(await killServerConnections()).toBeGreaterThan(0);
      await blocker.query("rollback");
      await blocker.end();

      const answer = await blocked;
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("5");
      expect(await answer.json()).toEqual({ detail: DATABASE_DETAIL });
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      stop = true;
    }
    expect((await load).filter((outcome) => outcome.status === "rejected")).toEqual([]);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);

    // The pool replaced the killed connections: the next requests are served, and the refused write left nothing.
    const listed = await call("/api/content");
    expect(listed.status).toBe(200);
    expect(JSON.stringify(await listed.json())).not.toContain("Written while the database restarts");
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it("the cluster stopped: 503 with Retry-After on /api and on screens, health degraded; served again within 10 s of its start", async () => {
    pgCtl(cluster, ["-m", "fast", "stop"]);
    try {
      const api = await call("/api/content");
      expect(api.status).toBe(503);
      expect(api.headers.get("retry-after")).toBe("5");
      expect(await api.json()).toEqual({ detail: DATABASE_DETAIL });

      const write = await call("/api/content", { json: { title: "During the outage", body: "x" } });
      expect(write.status).toBe(503);

      const page = await fetch(`${server.url}/dashboard`, { headers: { Cookie: cookie } });
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("5");
      const html = await page.text();
      expect(html).toContain("The studio can&#x27;t reach its database right now");
      // An empty href: this very address, query included, loaded afresh (without JavaScript too).
      expect(html).toMatch(/<a[^>]*href=""[^>]*>Try again<\/a>/);

      // A file route outside the API's wrapper, and a client-side navigation's data request, say the same.
      const file = await call("/media/abcdefgh12345678");
      expect(file.status).toBe(503);
      expect(file.headers.get("retry-after")).toBe("5");
      expect(await file.json()).toEqual({ detail: DATABASE_DETAIL });
      expect((await fetch(`${server.url}/dashboard.data`, { headers: { Cookie: cookie } })).status).toBe(503);

      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(503);
      expect(health.headers.get("retry-after")).toBe("5");
      expect(await health.json()).toMatchObject({
        status: "degraded",
        database: "unavailable",
        storage: "ok",
        database_engine: "postgres",
      });

      // What needs no database is answered as ever: a wrong method is still its 405, not a 503.
      expect((await fetch(`${server.url}/api/content`, { method: "PATCH" })).status).toBe(405);

      // Every /s/ answer keeps its headers (decision 0090): the page with a visitor's cookie (the session
      // fails first, in the root's middleware) and without (its loader fails), and a file of it.
      for (const [what, path, headers] of [
        ["the page, signed in", sharePath, { Cookie: cookie }],
        ["the page", sharePath, {}],
        ["a file", `${sharePath}/file/x?g=1.${"A".repeat(43)}`, {}],
      ] as const) {
        const shared = await fetch(server.url + path, { headers });
        await shared.arrayBuffer();
        expect(shared.status, what).toBe(503);
        expect(shared.headers.get("x-robots-tag"), what).toBe("noindex");
        expect(shared.headers.get("referrer-policy"), what).toBe("no-referrer");
        expect(shared.headers.get("cache-control"), what).toBe("no-store");
        expect(shared.headers.get("content-security-policy"), what).toContain("script-src 'none'");
        expect(shared.headers.get("content-security-policy"), what).not.toContain("nonce-");
      }
      expect((await fetch(server.url + sharePath, { method: "POST" })).status).toBe(405);
    } finally {
      pgCtl(cluster, ["-l", path.join(path.dirname(cluster.dataDir), "postgres.log"), "start"]);
    }
    const recovered = await until(10_000, async () => (await call("/api/content")).status === 200);
    expect(recovered).toBeLessThan(10_000);
    expect((await fetch(`${server.url}/dashboard`, { headers: { Cookie: cookie } })).status).toBe(200);
    await until(3000, async () => (await fetch(`${server.url}/api/health`)).status === 200);
    const created = await call("/api/content", { json: { title: "After the outage", body: "x" } });
    expect(created.status).toBe(201);
    expect(server.child.exitCode).toBeNull();
  }, 90_000);
});
