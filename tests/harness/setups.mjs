// @ts-check
// The three set-ups the load, faults and cluster scripts run against, all on loopback:
// - sqlite:   one instance on the embedded defaults (SQLite and files under DATA_DIR);
// - postgres: one instance on a throwaway PostgreSQL cluster;
// - cluster:  two instances behind nginx (round robin), sharing one PostgreSQL and one S3-compatible
//             object store (s3rver, from npm, in this process).
import fs from "node:fs";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchServer } from "./launch.mjs";
import { freePort, startNginx } from "./nginx.mjs";
import { startPgCluster } from "./pg-cluster.mjs";

export const SETUPS = ["sqlite", "postgres", "cluster"];
const BUCKET = "studio-media";

/**
 * s3rver (in a process of its own) on a free loopback port with a temporary folder and one bucket; its
 * fixed credentials in `env`. `halt()` stops it and keeps its folder; `resume()` starts it again on the
 * same port and folder (the store's outage of `npm run faults -- outages`).
 */
export async function startS3Server() {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "studio-s3rver-"));
  /** @type {import("node:child_process").ChildProcessByStdio<null, import("node:stream").Readable, null> | null} */
  let child = null;
  /** @type {Promise<number | null> | null} */
  let exited = null;
  /**
   * @param {number} wanted
   * @returns {Promise<number>}
   */
  const launch = async (wanted) => {
    child = spawn(
      process.execPath,
      [
        path.join(path.dirname(fileURLToPath(import.meta.url)), "s3rver-process.mjs"),
        directory,
        BUCKET,
        ...(wanted ? [String(wanted)] : []),
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const started = child;
    exited = new Promise((resolve) => started.once("exit", resolve));
    const ended = exited;
    return new Promise((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${output}`)), 20_000);
      started.stdout.on("data", (chunk) => {
        output += chunk;
        const match = /listening (\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      void ended.then((code) => {
        clearTimeout(timer);
        reject(new Error(`s3rver exited with ${code}: ${output}`));
      });
    });
  };
  // SIGTERM: s3rver finishes what is in flight (at most 3 s), then exits. Not SIGKILL: a PUT cut in
  // the middle leaves s3rver a half-written metadata file, and every later listing of that folder is
  // a 500 (an artefact of s3rver's file store; a real store never shows half an object).
  const end = async (/** @type {NodeJS.Signals} */ signal) => {
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
    }
  };
  const port = await launch(0);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: {
      STORAGE_URL: `s3://${BUCKET}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&force_path_style=true`,
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      AWS_REGION: "us-east-1",
    },
    halt: () => end("SIGTERM"),
    resume: () => launch(port),
    stop: async () => {
      await end("SIGTERM");
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** @typedef {import("./launch.mjs").LaunchedServer & { metricsUrl?: string }} SetupInstance */

/**
 * Starts a set-up; resolves { name, url, instances, env, restart(i), stop() }. `instances[i]` is the
 * launched server (pid, dataDir, stop; in a cluster also `metricsUrl`, its own METRICS_PORT's
 * /metrics); `restart(i)` starts instance i again with the same settings (after a kill -9, say). `extraEnv` goes to every instance; `onOutput(i, text)` sees instance i's
 * output (log: false). `services` holds the set-up's PostgreSQL cluster, s3rver and nginx (`pg`, `s3`,
 * `nginx`), if any.
 * @param {string} name
 * @param {{ extraEnv?: Record<string, string>; log?: boolean; onOutput?: (i: number, text: string) => void }} [options]
 */
export async function startSetup(name, { extraEnv = {}, log = false, onOutput } = {}) {
  if (!SETUPS.includes(name)) throw new Error(`unknown set-up "${name}": one of ${SETUPS.join(", ")}`);
  /** @type {(() => Promise<void>)[]} */
  const cleanups = [];
  /** @type {{ stdout?: "inherit"; stderr?: "inherit" }} */
  const stdio = log ? { stdout: "inherit", stderr: "inherit" } : {};
  const output = (/** @type {number} */ i) =>
    onOutput && !log ? { onOutput: (/** @type {string} */ text) => onOutput(i, text) } : {};
  /** @type {{ pg?: import("./pg-cluster.mjs").PgCluster; s3?: Awaited<ReturnType<typeof startS3Server>>; nginx?: Awaited<ReturnType<typeof startNginx>> }} */
  const services = {};
  try {
    /** @type {Record<string, string>} */
    const env = { ...extraEnv };
    if (name !== "sqlite") {
      const pg = await startPgCluster();
      cleanups.push(() => pg.stop());
      services.pg = pg;
      env.DATABASE_URL = pg.url;
    }
    if (name === "cluster") {
      const s3 = await startS3Server();
      cleanups.push(() => s3.stop());
      services.s3 = s3;
      Object.assign(env, s3.env, { TRUST_PROXY: "loopback" });
    }
    const count = name === "cluster" ? 2 : 1;
    /** @type {SetupInstance[]} */
    const instances = [];
    // A cluster's instances keep metrics for Prometheus (test:cluster scrapes them), each on a port of
    // its own chosen once, so a restarted instance is scraped where it was.
    /** @type {number[]} */
    const metricsPorts = [];
    const envOf = async (/** @type {number} */ i) => {
      if (name !== "cluster") return env;
      metricsPorts[i] ??= await freePort();
      return { ...env, METRICS_PORT: String(metricsPorts[i]) };
    };
    const withMetricsUrl = (/** @type {number} */ i, /** @type {SetupInstance} */ instance) =>
      metricsPorts[i]
        ? Object.assign(instance, { metricsUrl: `http://127.0.0.1:${metricsPorts[i]}/metrics` })
        : instance;
    // Instances of one set-up share the data folder (the session secret file) unless the database and
    // store are shared services; each keeps its temporary upload files apart by its own instance id.
    // Each instance on a port of its own chosen up front (not PORT=0), as in a deployment: its default
    // instance id (`<host>-<port>`, its temporary folder) is then the same after restart(i).
    const first = await launchServer({
      env: { ...(await envOf(0)), PORT: String(await freePort()) },
      dataDirPrefix: `studio-${name}-`,
      ...stdio,
      ...output(0),
    });
    instances.push(withMetricsUrl(0, first));
    for (let i = 1; i < count; i++) {
      const instance = await launchServer({
        env: { ...(await envOf(i)), DATA_DIR: first.dataDir, PORT: String(await freePort()) },
        ...stdio,
        ...output(i),
      });
      instances.push(withMetricsUrl(i, instance));
    }
    let url = first.url;
    if (name === "cluster") {
      const nginx = await startNginx({ upstreams: instances.map((instance) => new URL(instance.url).host) });
      cleanups.push(() => nginx.stop());
      services.nginx = nginx;
      url = nginx.url;
    }
    const dataDir = first.dataDir;
    const setup = {
      name,
      url,
      env,
      dataDir,
      instances,
      services,
      /** Starts instance i again on its old port (nginx keeps pointing at it) and data. */
      async restart(/** @type {number} */ i) {
        const port = new URL(instances[i].url).port;
        const restarted = await launchServer({
          env: { ...(await envOf(i)), DATA_DIR: dataDir, PORT: port },
          ...stdio,
          ...output(i),
        });
        instances[i] = withMetricsUrl(i, restarted);
        return instances[i];
      },
      async stop() {
        await Promise.all(instances.map((instance) => instance.stop().catch(() => {})));
        for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
    return setup;
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    throw error;
  }
}
