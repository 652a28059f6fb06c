// @ts-check
// A throwaway PostgreSQL cluster on loopback, for the tests (`npm run test:pg`), the cluster test, load
// and faults. initdb in a temporary folder, a free port on 127.0.0.1, the unix socket in that folder,
// fsync off (a throwaway cluster needs no durability), trust authentication (loopback only); stop()
// stops the server and removes the folder.
//
// As a module:  const { url, stop } = await startPgCluster();   // url: postgres://postgres@127.0.0.1:<port>/studio
// As a CLI:     node tests/harness/pg-cluster.mjs start [--database NAME] [--port N]
//               prints the URL on stdout, stays up until SIGTERM or SIGINT, then cleans up.
//               Exits with 3 when PostgreSQL is not installed (callers can skip or install it).
//
// PostgreSQL refuses to run as root: as root the server runs as the `postgres` OS user (created as a
// system user when missing); otherwise as the current user. The binaries are found through
// PG_BINDIR, `pg_config --bindir`, /usr/lib/postgresql/<version>/bin (newest first) or the PATH.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Thrown when no PostgreSQL server binaries (initdb, pg_ctl, postgres) are found. */
export class PostgresNotInstalledError extends Error {
  code = "PG_NOT_INSTALLED";
  constructor() {
    super(
      "PostgreSQL is not installed: no initdb/pg_ctl/postgres found through PG_BINDIR, `pg_config --bindir`, " +
        "/usr/lib/postgresql/*/bin or the PATH (Debian: apt-get install postgresql)",
    );
  }
}

const SERVER_BINARIES = ["initdb", "pg_ctl", "postgres"];
const hasServerBinaries = (/** @type {string} */ dir) =>
  Boolean(dir) && SERVER_BINARIES.every((name) => fs.existsSync(path.join(dir, name)));

/** The folder holding initdb, pg_ctl and postgres, or null when PostgreSQL is not installed. */
export function findPostgresBindir() {
  /** @type {string[]} */
  const candidates = [];
  if (process.env.PG_BINDIR) candidates.push(process.env.PG_BINDIR);
  const pgConfig = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  if (pgConfig.status === 0 && pgConfig.stdout.trim()) candidates.push(pgConfig.stdout.trim());
  const debian = "/usr/lib/postgresql";
  if (fs.existsSync(debian)) {
    const versions = fs
      .readdirSync(debian)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(path.join(debian, version, "bin"));
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) candidates.push(path.dirname(fs.realpathSync(which.stdout.trim())));
  return candidates.find(hasServerBinaries) ?? null;
}

/** Whether a throwaway cluster can be started here (the binaries exist). */
export function postgresAvailable() {
  return findPostgresBindir() !== null;
}

/**
 * A free TCP port on 127.0.0.1.
 * @returns {Promise<number>}
 */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** Who runs the server: the `postgres` user when we are root (created if missing), else ourselves. */
function serverUser() {
  if (!isRoot()) return null;
  const ids = () => {
    const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    return uid.status === 0 && gid.status === 0
      ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
      : null;
  };
  let found = ids();
  if (!found) {
    const created = spawnSync(
      "useradd",
      ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"],
      {
        encoding: "utf8",
      },
    );
    found = ids();
    if (!found) throw new Error(`could not create the postgres system user: ${created.stderr || created.error}`);
  }
  return found;
}

/**
 * Runs a PostgreSQL binary as the server user; resolves with its output, rejects with it on failure.
 * @param {string} bindir
 * @param {string} name
 * @param {string[]} args
 * @param {{ user: { uid: number; gid: number } | null; cwd: string; env: Record<string, string> }} options
 * @returns {Promise<string>}
 */
function run(bindir, name, args, { user, cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(bindir, name), args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${name} ${args.join(" ")} failed (exit ${code}):\n${output}`)),
    );
  });
}

/**
 * Every cluster this process started and has not stopped: stopped on exit so none outlives us.
 * @type {Set<PgCluster>}
 */
const running = new Set();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const cluster of running) cluster.stopSync();
  });
}

/**
 * @typedef {object} PgCluster
 * @property {string} url postgres://postgres@127.0.0.1:<port>/<database> (trust authentication, loopback only).
 * @property {number} port
 * @property {string} database
 * @property {string} dataDir
 * @property {string} bindir
 * @property {(name: string) => Promise<string>} createDatabase Creates another database in the cluster; resolves with its URL.
 * @property {() => Promise<string>} restart `pg_ctl restart -m fast` on the same data and port.
 * @property {() => Promise<string>} halt Stops the server, keeping its folder (resume() starts it again).
 * @property {() => Promise<string>} resume
 * @property {() => Promise<void>} stop Stops the server and removes its temporary folder.
 * @property {() => void} stopSync
 */

/**
 * @typedef {object} StartPgClusterOptions
 * @property {string} [database] Database created in the cluster (default "studio").
 * @property {number} [port] TCP port on 127.0.0.1 (default: a free one).
 * @property {string | null} [bindir] Folder of initdb, pg_ctl and postgres (default: findPostgresBindir()).
 * @property {boolean} [log] Print where the cluster runs on stderr.
 */

/**
 * Starts a throwaway cluster and creates `database` in it. Returns `{ url, port, database, dataDir,
 * bindir, createDatabase(name), restart(), halt(), resume(), stop() }`; `url` is postgres://postgres@127.0.0.1:<port>/<database>.
 * Throws PostgresNotInstalledError when the binaries are missing.
 * @param {StartPgClusterOptions} [options]
 * @returns {Promise<PgCluster>}
 */
export async function startPgCluster({ database = "studio", port, bindir = findPostgresBindir(), log = false } = {}) {
  if (!bindir) throw new PostgresNotInstalledError();
  if (!/^[a-z_][a-z0-9_]*$/.test(database))
    throw new Error(`database name must be a plain identifier, got "${database}"`);
  const user = serverUser();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "studio-pg-"));
  const dataDir = path.join(root, "data");
  const logFile = path.join(root, "postgres.log");
  if (user) fs.chownSync(root, user.uid, user.gid);
  const env = { HOME: root, LC_ALL: "C", PGDATA: dataDir };
  const options = { user, cwd: root, env };
  let listenPort = port;
  const removeRoot = () => fs.rmSync(root, { recursive: true, force: true });

  try {
    await run(
      bindir,
      "initdb",
      ["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
      options,
    );
    // A free port can be taken between the probe and the server's bind: try a few.
    for (let attempt = 1; ; attempt++) {
      listenPort = port ?? (await freePort());
      const settings = [
        `port = ${listenPort}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${root}'`,
        "fsync = off",
        "synchronous_commit = off",
        "full_page_writes = off",
        "max_connections = 200",
        "shared_buffers = 64MB",
        "log_min_messages = warning",
      ];
      fs.writeFileSync(path.join(dataDir, "postgresql.auto.conf"), `${settings.join("\n")}\n`);
      try {
        await run(bindir, "pg_ctl", ["-D", dataDir, "-l", logFile, "-w", "-t", "60", "start"], options);
        break;
      } catch (error) {
        if (port !== undefined || attempt >= 3) {
          const serverLog = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "";
          throw new Error(`${/** @type {Error} */ (error).message}\n${serverLog}`);
        }
      }
    }
  } catch (error) {
    spawnSync(path.join(bindir, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"], {
      stdio: "ignore",
      ...(user ?? {}),
    });
    removeRoot();
    throw error;
  }

  const client = (/** @type {string} */ name, /** @type {string[]} */ args) =>
    run(bindir, name, ["-h", "127.0.0.1", "-p", String(listenPort), "-U", "postgres", ...args], options);
  const urlOf = (/** @type {string} */ name) => `postgres://postgres@127.0.0.1:${listenPort}/${name}`;
  let stopped = false;

  /** @type {PgCluster} */
  const cluster = {
    url: urlOf(database),
    port: listenPort,
    database,
    dataDir,
    bindir,
    /** Creates another database in the cluster (e.g. one per test worker); returns its URL. */
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name must be a plain identifier, got "${name}"`);
      await client("createdb", [name]);
      return urlOf(name);
    },
    /**
     * The outages of `npm run faults -- outages`, on the same data and port: `restart()` is
     * `pg_ctl restart -m fast` (open connections are ended, 57P01); `halt()` stops the server and
     * keeps the folder; `resume()` starts it again. Each resolves once pg_ctl has waited it through.
     */
    restart: () =>
      run(bindir, "pg_ctl", ["-D", dataDir, "-l", logFile, "-m", "fast", "-w", "-t", "60", "restart"], options),
    halt: () => run(bindir, "pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "-t", "60", "stop"], options),
    resume: () => run(bindir, "pg_ctl", ["-D", dataDir, "-l", logFile, "-w", "-t", "60", "start"], options),
    /** Stops the server (fast shutdown: open connections are closed) and removes the folder. */
    async stop() {
      if (stopped) return;
      stopped = true;
      running.delete(cluster);
      try {
        await run(bindir, "pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "-t", "30", "stop"], options);
      } catch {
        spawnSync(path.join(bindir, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"], {
          stdio: "ignore",
          ...(user ?? {}),
        });
      }
      removeRoot();
    },
    /** The same, synchronously (process exit). */
    stopSync() {
      if (stopped) return;
      stopped = true;
      running.delete(cluster);
      spawnSync(path.join(bindir, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"], {
        stdio: "ignore",
        cwd: root,
        ...(user ?? {}),
      });
      removeRoot();
    },
  };
  running.add(cluster);
  installExitHook();

  try {
    if (database !== "postgres") await client("createdb", [database]);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  if (log) console.error(`[pg-cluster] PostgreSQL (${bindir}) on 127.0.0.1:${listenPort}, data in ${dataDir}`);
  return cluster;
}

// ---- CLI ------------------------------------------------------------------------------------------

/**
 * @param {string[]} args
 * @param {string} name
 */
function argument(args, name) {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

/** @param {string[]} args */
async function main(args) {
  const [command] = args;
  if (command !== "start") {
    console.error("usage: node tests/harness/pg-cluster.mjs start [--database NAME] [--port N]");
    process.exit(2);
  }
  const database = argument(args, "--database") ?? "studio";
  const portText = argument(args, "--port");
  let cluster;
  try {
    cluster = await startPgCluster({ database, port: portText ? Number(portText) : undefined, log: true });
  } catch (error) {
    console.error(`[pg-cluster] ${/** @type {Error} */ (error).message}`);
    process.exit(error instanceof PostgresNotInstalledError ? 3 : 1);
  }
  console.log(cluster.url);
  const shutdown = async (/** @type {string} */ signal) => {
    console.error(`[pg-cluster] ${signal}: stopping`);
    await cluster.stop();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  // Stay up: a timer that never fires keeps the event loop alive until a signal arrives.
  setInterval(() => {}, 1 << 30);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
