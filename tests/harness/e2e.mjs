// @ts-check
// Browser tests: Debian's Chromium against the production build on a free port with a temporary DATA_DIR.
// Extra arguments go to Playwright, e.g. `npm run test:e2e -- tests/e2e/landing.spec.ts`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureChromium } from "./ensure-chromium.mjs";
import { hasBuild, launchServer, root } from "./launch.mjs";
process.env.CHROMIUM_PATH = ensureChromium();

if (!hasBuild()) {
  console.error("[e2e] no production build: run `npm run build` first (npm test does).");
  process.exit(1);
}

const server = await launchServer({
  dataDirPrefix: "studio-e2e-",
  // The pseudo-language for tests/e2e/pseudo-language.spec.ts (docs/translating.md#checks).
  env: { SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789", PSEUDO_LANGUAGE: "true" },
  stderr: "inherit",
});
const { port, dataDir } = server;

const playwright = spawn(path.join(root, "node_modules/.bin/playwright"), ["test", ...process.argv.slice(2)], {
  cwd: root,
  // localhost (not 127.0.0.1): browsers treat it as a secure context, so Secure cookies work over http.
  env: { ...process.env, BASE_URL: `http://localhost:${port}`, E2E_DATA_DIR: dataDir },
  stdio: "inherit",
});
const code = await new Promise((resolve) => playwright.on("exit", (exitCode) => resolve(exitCode ?? 1)));
await server.stop();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(code);
