// @ts-check
// The one launcher: starts the production build (the compiled server/) in a child process on a free
// port with a temporary DATA_DIR and resolves once it listens, with its URL. Used by tests/harness/e2e.mjs,
// the benchmarks and tests/support/server.ts. BUILD_DIR selects the build, as everywhere.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hasBuild, root, serverEntryPath } from "../../scripts/ensure-build.mjs";
import { SERVER_NODE_OPTIONS } from "../../scripts/server-node-options.mjs";

// "Build if missing or older than the sources" is written once, in scripts/ensure-build.mjs.
export { ensureBuild, hasBuild, root, serverBuildPath } from "../../scripts/ensure-build.mjs";

/**
 * What Debian's Chromium needs on these machines, run as root with no network beyond loopback
 * (../shared/TOOLCHAIN.md): Playwright's browsers and Lighthouse's start it with these.
 */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * @typedef {object} LaunchOptions
 * @property {Record<string, string>} [env]
 * @property {string} [dataDirPrefix]
 * @property {"pipe" | "inherit"} [stdout]
 * @property {"pipe" | "inherit"} [stderr]
 * @property {(text: string) => void} [onOutput]
 * @property {number} [timeoutMs]
 * @property {string[]} [nodeArgs]
 */

/**
 * @typedef {object} LaunchedServer
 * @property {string} url
 * @property {number} port
 * @property {string} dataDir
 * @property {import("node:child_process").ChildProcess} child
 * @property {number | undefined} pid
 * @property {Promise<{ code: number | null; signal: NodeJS.Signals | null }>} exited
 * @property {() => Promise<void>} stop
 */

/**
 * The server's node command line after the node binary: the server's own options (as `npm start`
 * gives them), the caller's, then the compiled front door.
 * @param {string[]} [nodeArgs]
 */
export function serverCommandArgs(nodeArgs = []) {
  return [...SERVER_NODE_OPTIONS, ...nodeArgs, serverEntryPath()];
}

/**
 * Starts the server. Options:
 * - env: extra environment (wins over the defaults below; `DATA_DIR` reuses a data folder, e.g. to
 *   start again on the same data);
 * - dataDirPrefix: the temporary DATA_DIR's name prefix (default `studio-test-`);
 * - stdout / stderr: "pipe" (collected, shown when the start fails; `onOutput` sees it) or "inherit";
 * - timeoutMs: how long the start may take (default 30 s);
 * - nodeArgs: options for node itself (e.g. `--cpu-prof`, which NODE_OPTIONS may not carry), after the
 *   server's own (scripts/server-node-options.mjs, as `npm start` gives them), so one of them may override.
 * Resolves { url, port, dataDir, child, pid, exited, stop }. `url` uses 127.0.0.1; `stop()` sends
 * SIGTERM and resolves when the process has exited; `exited` resolves { code, signal } on exit.
 * @param {LaunchOptions} [options]
 * @returns {Promise<LaunchedServer>}
 */
export async function launchServer({
  env = {},
  dataDirPrefix = "studio-test-",
  stdout = "pipe",
  stderr = "pipe",
  onOutput,
  timeoutMs = 30_000,
  nodeArgs = [],
} = {}) {
  if (!hasBuild()) throw new Error("No production build: run `npm run build` first (npm test does).");
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), dataDirPrefix));
  const child = spawn(process.execPath, serverCommandArgs(nodeArgs), {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SESSION_SECRET: "launch-session-secret-that-is-long-enough-0123456789",
      // No request log (tests, benchmarks); a caller that wants it passes LOG_REQUESTS: "1".
      LOG_REQUESTS: "0",
      ...env,
    },
    // stdout is always read: the "running at" line carries the port.
    stdio: ["ignore", "pipe", stderr === "inherit" ? "inherit" : "pipe"],
  });
  /** @type {LaunchedServer["exited"]} */
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let output = "";
  /** @type {string} */
  const url = await new Promise((resolve, reject) => {
    let listening = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    child.stdout?.on("data", (chunk) => {
      if (stdout === "inherit") process.stdout.write(chunk);
      onOutput?.(String(chunk));
      if (listening) return;
      output += chunk;
      const match = /running at http:\/\/[^:\s]+:(\d+)/.exec(output);
      if (match) {
        listening = true;
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    });
    child.stderr?.on("data", (chunk) => {
      if (!listening) output += chunk;
      onOutput?.(String(chunk));
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      if (!listening) reject(new Error(`server exited with ${code ?? signal}:\n${output}`));
    });
  });
  return {
    url,
    port: Number(new URL(url).port),
    dataDir,
    child,
    pid: child.pid,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * A benchmark's scratch folder (under the system's temporary folder), removed when the process exits
 * or is interrupted, with the server put in `scratch.server` stopped first.
 * @param {string} prefix
 */
export function scratchFolder(prefix) {
  /** @type {{ dir: string; server: LaunchedServer | null; remove: () => void }} */
  const scratch = {
    dir: fs.mkdtempSync(path.join(os.tmpdir(), prefix)),
    server: null,
    /** Stops the server (if still there) and removes the folder; also done on exit. */
    remove() {
      scratch.server?.child.kill("SIGTERM");
      scratch.server = null;
      fs.rmSync(scratch.dir, { recursive: true, force: true });
    },
  };
  process.on("exit", () => scratch.remove());
  process.on("SIGINT", () => process.exit(130));
  return scratch;
}
