// @ts-check
// A throwaway Prometheus on loopback scraping the instances' metrics ports every second, for
// `npm run test:cluster`: Debian's prometheus package (PROMETHEUS_PATH names another binary); the config
// and its data live in a temporary folder removed on stop.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./nginx.mjs";

/** The prometheus binary: PROMETHEUS_PATH, Debian's /usr/bin/prometheus, then the PATH; null when none. */
export function findPrometheus() {
  const candidates = /** @type {string[]} */ ([process.env.PROMETHEUS_PATH, "/usr/bin/prometheus"].filter(Boolean));
  for (const candidate of candidates) if (fs.existsSync(candidate)) return candidate;
  const which = spawnSync("sh", ["-c", "command -v prometheus"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  return null;
}

/** @param {string[]} targets `127.0.0.1:<port>` of each instance's metrics */
function config(targets) {
  return `global: { scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: studio
    static_configs: [{ targets: [${targets.map((target) => JSON.stringify(target)).join(", ")}] }]
`;
}

/**
 * Starts Prometheus on a free loopback port scraping `targets`; resolves once it is ready, with its
 * URL, `query(promql)` (the instant query's result vector) and `stop()`. Throws a clear error when
 * Prometheus is not installed.
 * @param {{ targets: string[] }} options
 */
export async function startPrometheus({ targets }) {
  const binary = findPrometheus();
  if (!binary)
    throw new Error("prometheus is not installed (Debian: apt-get install --no-install-recommends prometheus)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-prometheus-"));
  fs.writeFileSync(path.join(dir, "prometheus.yml"), config(targets));
  const port = await freePort();
  const child = spawn(
    binary,
    [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--storage.tsdb.retention.time=1h",
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    /** @type {Promise<void>} */ (
      new Promise((resolve) => {
        const done = () => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", done);
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      })
    );
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`prometheus exited with ${child.exitCode}: ${stderr}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus was not ready on ${url} within 30 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    /**
     * The instant query's result (`data.result`); throws unless Prometheus says `success`.
     * @param {string} promql
     * @returns {Promise<{ metric: Record<string, string>; value: [number, string] }[]>}
     */
    async query(promql) {
      const answer = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = await answer.json();
      if (body.status !== "success") throw new Error(`prometheus answered ${JSON.stringify(body)} to ${promql}`);
      return body.data.result;
    },
    /**
     * The scrape targets and their health (`up`, `down`, `unknown`).
     * @returns {Promise<{ scrapeUrl: string; health: string; lastError: string }[]>}
     */
    async targets() {
      const body = await (await fetch(`${url}/api/v1/targets?state=active`)).json();
      return body.data.activeTargets;
    },
    stop,
  };
}
