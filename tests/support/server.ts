import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// The one launcher (plain JavaScript, shared with tests/harness/e2e.mjs and the benchmarks).
import { launchServer } from "../harness/launch.mjs";
import { createTestDatabase, postgresTestServer } from "./postgres";

export interface RunningServer {
  url: string;
  dataDir: string;
  /** The server process (e.g. to send it a signal). */
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop: () => Promise<void>;
}

/** On PostgreSQL: the database of each data directory this process started a server on. */
const databaseOfDataDir = new Map<string, string>();

/**
 * On PostgreSQL (TEST_DATABASE_URL or DATABASE_URL is a postgres:// URL, as `npm run test:pg` sets):
 * a server on a fresh data directory gets a fresh database, one started again on the same DATA_DIR
 * the database it had. Otherwise nothing: SQLite in the data directory, as always.
 */
async function postgresEnv(env: Record<string, string>): Promise<Record<string, string>> {
  const serverUrl = postgresTestServer();
  // A caller that names DATABASE_URL (even "" for SQLite) chooses the database itself.
  if (!serverUrl || "DATABASE_URL" in env) return {};
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "studio-test-"));
  let url = databaseOfDataDir.get(path.resolve(dataDir));
  if (!url) {
    url = await createTestDatabase(serverUrl, "api");
    databaseOfDataDir.set(path.resolve(dataDir), url);
  }
  return { DATA_DIR: dataDir, DATABASE_URL: url };
}

/**
 * Starts the production build on a free port with a temporary DATA_DIR (used by API and browser tests).
 * `env.DATA_DIR` reuses a given data directory, e.g. to start a server again on the same data (restarts).
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return launchServer({
    env: {
      SESSION_SECRET: "test-session-secret-that-is-long-enough-0123456789",
      // Tests say which client address they are with X-Forwarded-For.
      TRUST_PROXY: "loopback",
      ...env,
      ...(await postgresEnv(env)),
    },
    onOutput: process.env.TEST_SERVER_LOG ? (text: string) => process.stderr.write(text) : undefined,
    timeoutMs: SERVER_START_TIMEOUT_MS,
  });
}

/** How long a test server's start may take: a few seconds on a quiet machine, over 30 s on a loaded one. */
export const SERVER_START_TIMEOUT_MS = 120_000;

/**
 * The database settings a server started by startTestServer on `dataDir` uses, for a process that must
 * reach the same data (e.g. `npm run admin` in tests/api/admin.test.ts): its DATABASE_URL on PostgreSQL,
 * nothing on SQLite (the file in DATA_DIR).
 */
export function databaseEnvOf(dataDir: string): Record<string, string> {
  const url = databaseOfDataDir.get(path.resolve(dataDir));
  return url ? { DATABASE_URL: url } : {};
}
