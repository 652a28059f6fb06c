// @ts-check
// `npm test`: format check (Prettier), lint (ESLint), type check, production build, Vitest (unit + API against the build), Playwright (Chromium).
// `npm test -- --skip-browser` leaves Playwright out: CI's second runtime (docs/decisions/0074-one-browser-run-in-ci.md).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = (/** @type {string} */ name) => path.join(root, "node_modules/.bin", name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "studio-reports-"));
const vitestReport = path.join(reports, "vitest.json");
const playwrightReport = path.join(reports, "playwright.json");
/** @type {[name: string, command: string, args: string[]][]} */
const steps = [
  ["format check", bin("prettier"), ["--check", "--cache", "--log-level", "warn", "."]],
  ["lint", bin("eslint"), ["--cache", "--cache-location", "node_modules/.cache/eslint/", "."]],
  ["type check", bin("react-router"), ["typegen"]],
  ["type check", bin("tsc"), ["--noEmit"]],
  ["build", bin("react-router"), ["build"]],
  [
    "unit and API tests",
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`],
  ],
  ["browser tests", process.execPath, [path.join(root, "tests/harness/e2e.mjs")]],
];
const skipBrowser = process.argv.includes("--skip-browser");
if (skipBrowser) steps.pop();

for (const [name, command, args] of steps) {
  console.log(`\n[test] ${name}: ${path.basename(command)} ${args.join(" ")}`);
  const started = Date.now();
  const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport };
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`[test] ${name} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  console.log(`[test] ${name} passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * One plain closing line for CI: every test of both runners.
 * @param {string} file
 * @param {(report: any) => { passed: number; failed: number }} read
 */
function counts(file, read) {
  try {
    return read(JSON.parse(fs.readFileSync(file, "utf8")));
  } catch {
    return { passed: 0, failed: 0 };
  }
}
const vitest = counts(vitestReport, (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests }));
const playwright = counts(playwrightReport, (r) => ({
  passed: r.stats.expected + r.stats.flaky,
  failed: r.stats.unexpected,
}));
console.log(
  `\n[test] Vitest ${vitest.passed} passed; Playwright ${skipBrowser ? "not run (--skip-browser)" : `${playwright.passed} passed`}`,
);
console.log(`${vitest.passed + playwright.passed} passed, ${vitest.failed + playwright.failed} failed`);
