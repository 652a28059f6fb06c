import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface RunningServer {
  url: string;
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * Starts the production build on a free port with a temporary DATA_DIR (used by API and browser tests).
 * `env.DATA_DIR` reuses a given data directory, e.g. to start a server again on the same data (restarts).
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.resolve(root, process.env.BUILD_DIR || "build", "server/index.js"))) {
    throw new Error("No production build: run `npm run build` first (npm test does).");
  }
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "studio-test-"));
  const child: ChildProcess = spawn(process.execPath, ["-e", "import('./scripts/server.mjs').then((m) => m.startServer())"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SESSION_SECRET: "test-session-secret-that-is-long-enough-0123456789",
      // Tests say which client address they are with X-Forwarded-For.
      TRUST_PROXY: "loopback",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1].replace("localhost", "127.0.0.1"));
      }
    });
    child.stderr!.on("data", (chunk) => {
      output += chunk;
      if (process.env.TEST_SERVER_LOG) process.stderr.write(chunk);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
