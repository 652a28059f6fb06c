// `npm start`: builds the app when the build is missing or older than the sources, then serves it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.NODE_ENV ??= "production";

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const serverBuild = path.resolve(root, process.env.BUILD_DIR || "build", "server/index.js");
const builtAt = fs.existsSync(serverBuild) ? fs.statSync(serverBuild).mtimeMs : 0;
const sourcesAt = Math.max(
  ...["app", "db", "public", "package.json", "vite.config.ts", "react-router.config.ts"].map(newestMtime),
);
if (builtAt < sourcesAt) {
  console.log(builtAt ? "[studio] sources changed: rebuilding..." : "[studio] first start: building the app...");
  const bin = path.join(root, "node_modules/.bin/react-router");
  if (!fs.existsSync(bin)) {
    console.error("[studio] cannot build: dev dependencies are missing. Run `npm install` (without --omit=dev) first.");
    process.exit(1);
  }
  const result = spawnSync(bin, ["build"], { cwd: root, stdio: "inherit", env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Every setting but BUILD_DIR (above: where the build is) is read by the app's one schema and reaches
// scripts/server.mjs through the build (see its header); a bad value stops the start with a clear message.
const { startServer, failedToStart } = await import("./server.mjs");
await startServer().catch(failedToStart);
