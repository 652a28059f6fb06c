// `npm run lighthouse`: Lighthouse scores of the production build (docs/performance.md).
// Builds the app if there is no build under BUILD_DIR (default `build`), starts it with
// tests/harness/launch.mjs (temporary DATA_DIR), registers a user (POST /api/auth/register) and signs in
// through the login form (POST /login) so that /dashboard is audited signed in (the session cookie goes
// to Lighthouse as `extraHeaders`, and only for pages that send a visitor elsewhere, e.g. /dashboard:
// / and /login are audited as a visitor sees them, not in their signed-in variants), then runs
// Lighthouse (Node API) in Debian's Chromium, headless,
// through chrome-launcher (it comes with lighthouse; nothing downloads a browser), one fresh Chromium
// per page and run.
//
// Configuration: Lighthouse's default, i.e. mobile form factor and screen, *simulated* throttling
// (Lantern: 150 ms RTT, 1.6 Mbps, 4x CPU slowdown, computed from one unthrottled load). We found no
// documented reason to change it; rather one to keep it: Lighthouse's docs/variability.md says
// simulated throttling partially mitigates client hardware variability and resource contention, which
// DevTools throttling does not, and this shared 2-core machine has both. docs/throttling.md suggests
// calibrating `throttling.cpuSlowdownMultiplier` when the host's `benchmarkIndex` is outside the usual
// desktop range (about 1000-2000); we keep 4x, so scores compare with anyone's default Lighthouse, and
// print each run's benchmarkIndex and the load average so a slow or busy host can be recognised.
// Pages run one after another, never two Lighthouse runs at once (the docs warn against that too).
// Categories: performance, accessibility, best-practices, seo.
//
// Prints a markdown table (page, performance, accessibility, best practices, SEO) and, for each page
// whose performance is under 98, its metrics and failing performance audits with their display values.
// JSON reports go to LIGHTHOUSE_OUT (default: a new temporary folder; the path is printed).
// Options (environment): LIGHTHOUSE_PAGES (comma-separated paths, default `/,/login,/dashboard`),
// LIGHTHOUSE_RUNS (default 1; with more, each page runs that many times and the run with the median
// performance score is the one reported), LIGHTHOUSE_OUT, CHROME_PATH (default /usr/bin/chromium),
// BUILD_DIR (as everywhere).
// Exits non-zero only when Lighthouse itself fails (a throw, a runtimeError in the report, a page that
// answered with an error or redirected elsewhere); a score under target is reported, not an error.
// The server and Chromium are always stopped.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launch as launchChrome } from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, ensureBuild, launchServer } from "../tests/harness/launch.mjs";
import { formLogin, register } from "../tests/support/client.mjs";

const TARGET = 98;
const PAGES = (process.env.LIGHTHOUSE_PAGES || "/,/login,/dashboard")
  .split(",")
  .map((page) => page.trim())
  .filter(Boolean)
  .map((page) => (page.startsWith("/") ? page : `/${page}`));
const RUNS = Math.max(1, Math.floor(Number(process.env.LIGHTHOUSE_RUNS || 1)) || 1);
const CHROME_PATH = process.env.CHROME_PATH || "/usr/bin/chromium";
const CHROME_FLAGS = ["--headless=new", ...CHROMIUM_FLAGS];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const PASSWORD = "lighthouse password 1234";

function log(message) {
  process.stdout.write(`[lighthouse] ${message}\n`);
}

/** Registers a user and signs in through the login form; resolves the Cookie header value. */
async function signIn(url) {
  const email = `lighthouse-${randomUUID().slice(0, 8)}@example.com`;
  const registered = await register(url, email, { password: PASSWORD });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.text}`);
  const { status, cookie } = await formLogin(url, email, { password: PASSWORD });
  if (status !== 302 && status !== 303) throw new Error(`login failed: ${status}`);
  if (!cookie) throw new Error("login set no cookie");
  const check = await fetch(`${url}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
  await check.arrayBuffer();
  if (check.status !== 200) throw new Error(`signed-in /dashboard answered ${check.status}, not 200`);
  return cookie;
}

/** Whether `page` needs the session: a visitor is redirected (or refused) there. */
async function needsSignIn(url, page) {
  const response = await fetch(`${url}${page}`, { redirect: "manual" });
  await response.arrayBuffer();
  return (response.status >= 300 && response.status < 400) || response.status === 401 || response.status === 403;
}

const score = (lhr, id) => {
  const value = lhr.categories[id]?.score;
  return value === null || value === undefined ? null : Math.round(value * 100);
};

const slug = (page) => (page === "/" ? "root" : page.replace(/^\/+|\/+$/g, "").replace(/[^a-z0-9]+/gi, "-"));

/** One Lighthouse run of `url` in a fresh headless Chromium; resolves the report (LHR). */
async function audit(url, cookie, file) {
  const chrome = await launchChrome({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: CATEGORIES,
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    if (!result) throw new Error("Lighthouse returned no result");
    fs.writeFileSync(file, result.report);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const final = new URL(lhr.finalDisplayedUrl);
    if (final.pathname !== new URL(url).pathname) throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}`);
    return lhr;
  } finally {
    await chrome.kill();
  }
}

/** The rows of an audit's details, looking inside lists (the "insight" audits nest their tables). */
function rowsOf(details) {
  if (!details) return [];
  if (details.type === "list") return details.items.flatMap((item) => rowsOf(item));
  if (details.type === "table" || details.type === "opportunity") return details.items ?? [];
  return [];
}

/** A display value for audits that have none (the insights): the longest request chain. */
function summary(details) {
  for (const item of details?.type === "list" ? details.items : []) {
    const tree = item.value?.type === "network-tree" ? item.value : null;
    if (!tree) continue;
    const chain = [];
    let nodes = tree.chains;
    while (nodes && Object.keys(nodes).length) {
      const next = Object.values(nodes).find((node) => node.isLongest) ?? Object.values(nodes)[0];
      chain.push(new URL(next.url).pathname);
      nodes = next.children;
    }
    return `longest chain ${Math.round(tree.longestChain?.duration ?? 0)} ms: ${chain.join(" -> ")}`;
  }
  return "";
}

/** The performance metrics and the failing performance audits (score under 0.9), worst first. */
function explain(page, lhr) {
  const lines = [`\n### ${page}: performance ${score(lhr, "performance")}\n`];
  const refs = lhr.categories.performance.auditRefs;
  const metrics = refs.filter((ref) => ref.group === "metrics").map((ref) => lhr.audits[ref.id]);
  lines.push(
    "Metrics: " +
      metrics.map((a) => `${a.title} ${a.displayValue ?? "?"} (${Math.round((a.score ?? 0) * 100)})`).join(", "),
  );
  const failing = refs
    .map((ref) => lhr.audits[ref.id])
    .concat(Object.values(lhr.audits).filter((a) => a.metricSavings && !refs.some((ref) => ref.id === a.id)))
    .filter((a, i, all) => all.indexOf(a) === i)
    .filter((a) => typeof a.score === "number" && a.score < 0.9 && !metrics.includes(a))
    .sort((a, b) => a.score - b.score);
  const bootup = rowsOf(lhr.audits["bootup-time"]?.details).slice(0, 4);
  if (bootup.length)
    lines.push(
      "Main-thread time by script (throttled): " +
        bootup.map((item) => `${item.url.replace(/^https?:\/\/[^/]+/, "")} ${Math.round(item.total)} ms`).join(", "),
    );
  if (!failing.length) lines.push("No failing performance audit (the score is the metrics' alone).");
  for (const a of failing) {
    const savings = a.metricSavings
      ? Object.entries(a.metricSavings)
          .filter(([, value]) => value)
          .map(([metric, value]) => `${metric} ${metric === "CLS" ? value.toFixed(3) : `${Math.round(value)} ms`}`)
          .join(", ")
      : "";
    lines.push(
      `- ${a.id} (${a.title}): ${a.displayValue || summary(a.details) || "failed"}${savings ? `; savings ${savings}` : ""}`,
    );
    for (const item of rowsOf(a.details).slice(0, 5)) {
      const label =
        item.url ??
        item.node?.snippet ??
        item.source?.url ??
        item.source?.value ??
        item.label ??
        item.groupLabel ??
        item.entity;
      if (!label) continue;
      const extra = [
        item.totalBytes !== undefined ? `${(item.totalBytes / 1024).toFixed(1)} KiB` : null,
        item.wastedBytes !== undefined ? `wasted ${(item.wastedBytes / 1024).toFixed(1)} KiB` : null,
        item.wastedMs !== undefined ? `wasted ${Math.round(item.wastedMs)} ms` : null,
        item.duration !== undefined ? `${Math.round(item.duration)} ms` : null,
        item.total !== undefined ? `${Math.round(item.total)} ms` : null,
        item.reflowTime !== undefined ? `reflow ${Math.round(item.reflowTime)} ms` : null,
      ].filter(Boolean);
      lines.push(
        `    - ${typeof label === "object" ? JSON.stringify(label) : label}${extra.length ? ` (${extra.join(", ")})` : ""}`,
      );
    }
  }
  return lines.join("\n");
}

const outDir = process.env.LIGHTHOUSE_OUT
  ? path.resolve(process.env.LIGHTHOUSE_OUT)
  : fs.mkdtempSync(path.join(os.tmpdir(), "studio-lighthouse-"));
fs.mkdirSync(outDir, { recursive: true });

let server;
let failed = 0;
const stopServer = async () => {
  const running = server;
  server = undefined;
  await running?.stop();
};
// Whatever ends this process (an error thrown from an event, process.exit), the server goes with it.
process.on("exit", () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
});
process.on("uncaughtException", (error) => {
  log(`FAILED: ${error?.stack ?? error}`);
  void stopServer().finally(() => process.exit(1));
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void stopServer().finally(() => process.exit(130));
  });
}

const started = Date.now();
try {
  if (!fs.existsSync(CHROME_PATH))
    throw new Error(`no Chromium at ${CHROME_PATH}: apt-get install chromium, or set CHROME_PATH`);
  ensureBuild(log);
  server = await launchServer({ dataDirPrefix: "studio-lighthouse-" });
  log(
    `load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(
        " ",
      )} on ${os.availableParallelism()} cores: a busy host lengthens main-thread tasks, so TBT and the performance score drop`,
  );
  log(
    `server at ${server.url} (build ${process.env.BUILD_DIR || "build"}), Chromium ${CHROME_PATH}, ${RUNS} run(s) per page`,
  );
  const cookie = await signIn(server.url);

  const rows = [];
  const details = [];
  for (const page of PAGES) {
    const signedIn = await needsSignIn(server.url, page);
    const runs = [];
    for (let run = 1; run <= RUNS; run++) {
      const file = path.join(outDir, `${slug(page)}${RUNS > 1 ? `-run${run}` : ""}.json`);
      const runStarted = Date.now();
      try {
        let lhr;
        try {
          lhr = await audit(`${server.url}${page}`, signedIn ? cookie : undefined, file);
        } catch (error) {
          // Lighthouse's own advice for a trace that went wrong (NO_NAVSTART, seen now and then on a busy
          // host) is to run again: once.
          log(`${page} run ${run}: ${String(error?.message ?? error).split("\n")[0]}; trying once more`);
          lhr = await audit(`${server.url}${page}`, signedIn ? cookie : undefined, file);
        }
        runs.push(lhr);
        log(
          `${page}${signedIn ? " (signed in)" : ""} run ${run}: performance ${score(lhr, "performance")} in ${((Date.now() - runStarted) / 1000).toFixed(1)} s (benchmarkIndex ${lhr.environment?.benchmarkIndex ?? "?"})`,
        );
      } catch (error) {
        failed++;
        log(`${page} run ${run} FAILED: ${error?.stack ?? error}`);
      }
    }
    if (!runs.length) {
      rows.push([`${page}${signedIn ? " (signed in)" : ""}`, "error", "error", "error", "error"]);
      continue;
    }
    // The run with the median performance score (the lower middle one for an even count).
    const sorted = [...runs].sort((a, b) => (score(a, "performance") ?? -1) - (score(b, "performance") ?? -1));
    const median = sorted[Math.floor((sorted.length - 1) / 2)];
    const perf = score(median, "performance");
    const spread =
      runs.length > 1 ? ` (${score(sorted[0], "performance")}-${score(sorted.at(-1), "performance")})` : "";
    rows.push([
      `${page}${signedIn ? " (signed in)" : ""}`,
      `${perf ?? "n/a"}${spread}`,
      score(median, "accessibility") ?? "n/a",
      score(median, "best-practices") ?? "n/a",
      score(median, "seo") ?? "n/a",
    ]);
    if (perf === null || perf < TARGET) details.push(explain(page, median));
  }

  const columns = ["page", "performance", "accessibility", "best practices", "SEO"];
  const widths = columns.map((column, i) => Math.max(column.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) =>
    "| " +
    cells.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join(" | ") +
    " |";
  process.stdout.write(`\nLighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ""}mobile, simulated throttling\n\n`);
  process.stdout.write(line(columns) + "\n");
  process.stdout.write("|" + widths.map((width, i) => "-".repeat(width + 1) + (i === 0 ? "-" : ":")).join("|") + "|\n");
  for (const row of rows) process.stdout.write(line(row) + "\n");
  for (const text of details) process.stdout.write(text + "\n");
  process.stdout.write("\n");
} catch (error) {
  failed++;
  log(`FAILED: ${error?.stack ?? error}`);
} finally {
  await stopServer();
}
log(`JSON reports: ${outDir}`);
log(`took ${((Date.now() - started) / 1000).toFixed(1)} s${failed ? `; ${failed} failure(s)` : ""}`);
process.exit(failed ? 1 : 0);
