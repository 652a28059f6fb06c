import { spawn } from "node:child_process";
import path from "node:path";
import { databaseEnvOf } from "./server";

export interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run admin -- <args>` as an operator would (node scripts/admin.mjs, the npm script's
 * command), against the data directory `dataDir` (and, on PostgreSQL, the database a test server on it
 * uses), with only the environment given: nothing of the test process's own settings leaks in.
 * `input` is written to its stdin (the delete confirmation), which is then closed.
 */
export function runAdmin(
  args: string[],
  options: { dataDir: string; env?: Record<string, string>; input?: string },
): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.resolve("scripts/admin.mjs"), ...args], {
      cwd: path.resolve("."),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        // The build under test (CI's Node 24 run builds into build-node24).
        ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
        SESSION_SECRET: "test-session-secret-that-is-long-enough-0123456789",
        DATA_DIR: options.dataDir,
        ...databaseEnvOf(options.dataDir),
        ...options.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/** The invitation code of the link `npm run admin -- invite` printed. */
export function inviteCodeOf(run: AdminRun): string {
  const match = /\/register\?invite=([A-Za-z0-9_-]+)\s*$/.exec(run.stdout.trim());
  if (!match) throw new Error(`no invitation link in: ${run.stdout} ${run.stderr}`);
  return match[1];
}
