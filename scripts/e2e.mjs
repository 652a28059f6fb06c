// Browser tests: Debian's Chromium against the production build on a free port with a temporary DATA_DIR.
// Extra arguments go to Playwright, e.g. `npm run test:e2e -- tests/e2e/landing.spec.ts`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureChromium } from "./ensure-chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.CHROMIUM_PATH = ensureChromium();

if (!fs.existsSync(path.resolve(root, process.env.BUILD_DIR || "build", "server/index.js"))) {
  console.error("[e2e] no production build: run `npm run build` first (npm test does).");
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-e2e-"));
const server = spawn(process.execPath, ["-e", "import('./scripts/server.mjs').then((m) => m.startServer())"], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789",
  },
  stdio: ["ignore", "pipe", "inherit"],
});

const port = await new Promise((resolve, reject) => {
  let output = "";
  const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
  server.stdout.on("data", (chunk) => {
    output += chunk;
    const match = /running at http:\/\/[^:]+:(\d+)/.exec(output);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
  server.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
});

const playwright = spawn(path.join(root, "node_modules/.bin/playwright"), ["test", ...process.argv.slice(2)], {
  cwd: root,
  // localhost (not 127.0.0.1): browsers treat it as a secure context, so Secure cookies work over http.
  env: { ...process.env, BASE_URL: `http://localhost:${port}`, E2E_DATA_DIR: dataDir },
  stdio: "inherit",
});
const code = await new Promise((resolve) => playwright.on("exit", (exitCode) => resolve(exitCode ?? 1)));
server.kill("SIGTERM");
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(code);
