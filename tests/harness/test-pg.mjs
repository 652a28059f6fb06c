// @ts-check
// npm run test:pg — the Vitest API suite, and the unit tests that touch the database, against PostgreSQL.
//
// Starts a throwaway cluster (tests/harness/pg-cluster.mjs: initdb in a temporary folder, loopback only), then
// runs Vitest with DATABASE_URL and TEST_DATABASE_URL naming it. Every test server the API suite starts
// (tests/support/server.ts) gets a fresh database of its own, and every unit test file (tests/unit/setup.ts)
// too, so tests stay as isolated as on SQLite. Stops the cluster, prints "N passed, M failed" and exits
// with Vitest's code. Needs the production build (`npm run build`; BUILD_DIR selects it, as everywhere).
// Extra arguments go to Vitest (e.g. `npm run test:pg -- -t "health"`); test files named there are run instead of the whole list.
//
// PostgreSQL not installed: says so and exits 3 (Debian: apt-get install postgresql; CI installs it).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hasBuild, root, serverBuildPath } from "./launch.mjs";
import { PostgresNotInstalledError, startPgCluster } from "./pg-cluster.mjs";

/** The unit tests that open the database (models and what sits on them), run on PostgreSQL as well. */
const UNIT_FILES = [
  "tests/unit/content.test.ts",
  "tests/unit/content-search.test.ts",
  "tests/unit/content-search-upkeep.test.ts",
  "tests/unit/content-keyset.test.ts",
  "tests/unit/library-keyset.test.ts",
  "tests/unit/content-versions.test.ts",
  "tests/unit/content-change-counters.test.ts",
  "tests/unit/export-reads.test.ts",
  "tests/unit/projects.test.ts",
  "tests/unit/ai-video-jobs.test.ts",
  "tests/unit/video-job-control.test.ts",
  "tests/unit/passwords-and-sign-in-limits.test.ts",
  "tests/unit/tokens.test.ts",
  "tests/unit/media-storage.test.ts",
  "tests/unit/login-throttle.test.ts",
  "tests/unit/password-queue.test.ts",
  "tests/unit/session-revocation.test.ts",
  "tests/unit/account-sessions-and-tokens.test.ts",
  "tests/unit/refresh-grace.test.ts",
  "tests/unit/domain-errors.test.ts",
  "tests/unit/db-concurrency.test.ts",
  "tests/unit/ai-limits.test.ts",
  "tests/unit/assistant-context.test.ts",
  "tests/unit/storage-quota.test.ts",
  "tests/unit/transient-speech.test.ts",
  "tests/unit/postgres-portability.test.ts",
  "tests/unit/migrations.test.ts",
  "tests/unit/compiled-query.test.ts",
  "tests/unit/sso.test.ts",
  "tests/unit/invitations.test.ts",
  "tests/unit/shares.test.ts",
].filter((file) => fs.existsSync(path.join(root, file)));

const started = Date.now();
if (!hasBuild()) {
  console.error(
    `[test:pg] no production build at ${serverBuildPath()}: run \`npm run build\` first (BUILD_DIR selects it)`,
  );
  process.exit(1);
}

let cluster;
try {
  cluster = await startPgCluster({ database: "studio" });
} catch (error) {
  if (error instanceof PostgresNotInstalledError) {
    console.error(`[test:pg] ${error.message}`);
    console.error("[test:pg] PostgreSQL tests NOT RUN: install PostgreSQL (CI does) or run `npm test` for SQLite.");
    process.exit(3);
  }
  throw error;
}
console.log(`[test:pg] PostgreSQL ${cluster.bindir} on 127.0.0.1:${cluster.port}`);

const namedFiles = process.argv.slice(2).filter((arg) => !arg.startsWith("-") && /\.test\.ts$/.test(arg));
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "studio-test-pg-")), "vitest.json");
const args = [
  "vitest",
  "run",
  "--project",
  "api",
  "--project",
  "unit",
  // Files named on the command line replace the whole list (`npm run test:pg -- tests/api/x.test.ts`).
  ...(namedFiles.length > 0 ? [] : ["tests/api/", ...UNIT_FILES]),
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
];
const child = spawn("npx", args, {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: cluster.url, TEST_DATABASE_URL: cluster.url },
});
const forward = (/** @type {NodeJS.Signals} */ signal) => () => child.kill(signal);
process.on("SIGINT", forward("SIGINT"));
process.on("SIGTERM", forward("SIGTERM"));
const code = await new Promise((resolve) =>
  child.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
);
await cluster.stop();

let summary = "no Vitest report";
let plain = null;
try {
  const results = JSON.parse(fs.readFileSync(report, "utf8"));
  const skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
  plain = `${results.numPassedTests} passed, ${results.numFailedTests} failed`;
  summary = `${plain}${skipped ? `, ${skipped} skipped` : ""}`;
  if (results.numFailedTestSuites) summary += ` (${results.numFailedTestSuites} failed files)`;
} catch {
  // Vitest ended before writing its report; its own output says why.
}
fs.rmSync(path.dirname(report), { recursive: true, force: true });
console.log(`[test:pg] PostgreSQL: ${summary} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
// The plain closing line CI reads (and .ci/run adds up), alone on its line.
if (plain) console.log(plain);
process.exit(code);
