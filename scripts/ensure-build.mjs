// The one "build if missing or older than the sources" (decision 0054): `npm start`, the admin
// command, the test launcher and the benchmarks call it. A build is the app's (`<BUILD_DIR>/server/
// index.js` and the client files) and the front door compiled beside it
// (`<BUILD_DIR>/server-entry/index.js`); `react-router build` writes both (vite.config.ts).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What a build is made from: a change to any of them makes the build stale. */
const SOURCES = [
  "app",
  "server",
  "db",
  "public",
  "package.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
];

/** The build folder (BUILD_DIR, default `build`), absolute. */
export function buildDir() {
  return path.resolve(root, process.env.BUILD_DIR || "build");
}

/** The build's server module (the app). */
export function serverBuildPath() {
  return path.join(buildDir(), "server/index.js");
}

/** The compiled front door, run by `npm start` and the test launcher. */
export function serverEntryPath() {
  return path.join(buildDir(), "server-entry/index.js");
}

/** Whether BUILD_DIR holds a whole build (the app and the front door). */
export function hasBuild() {
  return fs.existsSync(serverBuildPath()) && fs.existsSync(serverEntryPath());
}

/** The newest modification time under `entry` (a file or a folder), 0 when it is missing. */
function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** Whether a source changed after the build was written (a missing build is stale too). */
export function isStale() {
  if (!hasBuild()) return true;
  const builtAt = Math.min(fs.statSync(serverBuildPath()).mtimeMs, fs.statSync(serverEntryPath()).mtimeMs);
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > builtAt);
}

/**
 * Builds the app (`react-router build`) when BUILD_DIR has no build or, unless `whenStale` is false,
 * one older than its sources. The admin command passes false: it runs beside a live server, whose
 * client files a rebuild would replace under it. `output` is where the build's own output goes
 * (default: this process's stdout and stderr; the admin command keeps its stdout for its answers).
 * Exits with the build's code when it fails.
 */
export function ensureBuild(options = {}) {
  // The benchmarks pass their log function alone.
  const {
    log = (message) => console.log(message),
    whenStale = true,
    output = "inherit",
  } = typeof options === "function" ? { log: options } : options;
  const missing = !hasBuild();
  if (!missing && !(whenStale && isStale())) return;
  const bin = path.join(root, "node_modules/.bin/react-router");
  if (!fs.existsSync(bin)) {
    console.error("[studio] cannot build: dev dependencies are missing. Run `npm install` (without --omit=dev) first.");
    process.exit(1);
  }
  log(missing ? `no production build in ${buildDir()}: building the app...` : "sources changed: rebuilding the app...");
  const stdio = output === "stderr" ? ["ignore", 2, 2] : "inherit";
  const result = spawnSync(bin, ["build"], { cwd: root, stdio, env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
