import type { ChildProcess } from "node:child_process";
// The one launcher (plain JavaScript, shared with scripts/e2e.mjs and the benchmarks).
import { launchServer } from "../../scripts/launch.mjs";

export interface RunningServer {
  url: string;
  dataDir: string;
  /** The server process (e.g. to send it a signal). */
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop: () => Promise<void>;
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
    },
    onOutput: process.env.TEST_SERVER_LOG ? (text: string) => process.stderr.write(text) : undefined,
  });
}
