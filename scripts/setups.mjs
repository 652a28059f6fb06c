// The three set-ups the load, faults and cluster scripts run against, all on loopback:
// - sqlite:   one instance on the embedded defaults (SQLite and files under DATA_DIR);
// - postgres: one instance on a throwaway PostgreSQL cluster;
// - cluster:  two instances behind nginx (round robin), sharing one PostgreSQL and one S3-compatible
//             object store (s3rver, from npm, in this process).
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { launchServer } from "./launch.mjs";
import { freePort, startNginx } from "./nginx.mjs";
import { startPgCluster } from "./pg-cluster.mjs";

export const SETUPS = ["sqlite", "postgres", "cluster"];
const BUCKET = "studio-media";

/** s3rver on a free loopback port with a temporary folder and one bucket; its fixed credentials in `env`. */
export async function startS3Server() {
  const S3rver = createRequire(import.meta.url)("s3rver");
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "studio-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
  // s3rver keeps objects as files and removes a key's folder when its last object goes; a PUT into
  // that folder at the same moment fails with ENOENT on a stream nobody listens to, which would end
  // this whole process. That request fails (the SDK retries it); the process goes on.
  const tolerateFolderRace = (error) => {
    if (error?.code === "ENOENT" && String(error.path ?? "").startsWith(directory)) {
      races.count++;
      return;
    }
    console.error(error);
    process.exit(1);
  };
  const races = { count: 0 };
  process.on("uncaughtException", tolerateFolderRace);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    races,
    endpoint,
    env: {
      STORAGE_URL: `s3://${BUCKET}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&force_path_style=true`,
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      AWS_REGION: "us-east-1",
    },
    stop: async () => {
      // After such a race s3rver's close() may never resolve: give it a few seconds.
      await Promise.race([server.close(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      process.off("uncaughtException", tolerateFolderRace);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a set-up; resolves { name, url, instances, env, restart(i), stop() }. `instances[i]` is the
 * launched server (pid, dataDir, stop); `restart(i)` starts instance i again with the same settings
 * (after a kill -9, say). `extraEnv` goes to every instance.
 */
export async function startSetup(name, { extraEnv = {}, log = false } = {}) {
  if (!SETUPS.includes(name)) throw new Error(`unknown set-up "${name}": one of ${SETUPS.join(", ")}`);
  const cleanups = [];
  const stdio = log ? { stdout: "inherit", stderr: "inherit" } : {};
  try {
    const env = { ...extraEnv };
    if (name !== "sqlite") {
      const pg = await startPgCluster();
      cleanups.push(() => pg.stop());
      env.DATABASE_URL = pg.url;
    }
    if (name === "cluster") {
      const s3 = await startS3Server();
      cleanups.push(() => s3.stop());
      Object.assign(env, s3.env, { TRUST_PROXY: "loopback" });
    }
    const count = name === "cluster" ? 2 : 1;
    const instances = [];
    // Instances of one set-up share the data folder (the session secret file) unless the database and
    // store are shared services; each keeps its temporary upload files apart by its own instance id.
    // Each instance on a port of its own chosen up front (not PORT=0), as in a deployment: its default
    // instance id (`<host>-<port>`, its temporary folder) is then the same after restart(i).
    const first = await launchServer({ env: { ...env, PORT: String(await freePort()) }, dataDirPrefix: `studio-${name}-`, ...stdio });
    instances.push(first);
    for (let i = 1; i < count; i++) {
      instances.push(await launchServer({ env: { ...env, DATA_DIR: first.dataDir, PORT: String(await freePort()) }, ...stdio }));
    }
    let url = first.url;
    let nginx = null;
    if (name === "cluster") {
      nginx = await startNginx({ upstreams: instances.map((instance) => new URL(instance.url).host) });
      cleanups.push(() => nginx.stop());
      url = nginx.url;
    }
    const dataDir = first.dataDir;
    const setup = {
      name,
      url,
      env,
      dataDir,
      instances,
      /** Starts instance i again on its old port (nginx keeps pointing at it) and data. */
      async restart(i) {
        const port = new URL(instances[i].url).port;
        instances[i] = await launchServer({ env: { ...env, DATA_DIR: dataDir, PORT: port }, ...stdio });
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
