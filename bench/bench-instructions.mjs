// `npm run bench -- instructions <other tree> [<this tree>]`: the table's requests (bench/bench.mjs)
// counted in CPU instructions, this tree's build (or the second tree's) against another tree's (a
// worktree of the code before a change, with its own `npm run build`), by turns in one run. CPU time
// on a shared machine moved 4.9 to 7.3 ms for one build's dashboard, so a 5% budget cannot be read
// from it; the instructions a request costs move by little whatever else runs (decision 0092).
// Each turn starts one tree's server under Valgrind's callgrind (Debian's `valgrind`; about 50 times
// slower) with V8 single-threaded and its inspector on loopback, signs a person up and in as a browser
// does, seeds 100 pieces (bench/scale-seed.mjs), then for each row sends --warm requests (the JIT's
// warm-up, not counted), has V8 collect all garbage, counts --idle seconds with no request, zeroes the
// counters, sends --requests requests one at a time, has callgrind dump what every thread ran since,
// and takes the idle rate over the window's length off: instructions per request, garbage collection,
// compilation and compression included. Pages are rendered fresh (a new query string per request),
// with the cookie and `Accept-Encoding: gzip, br`; writes with `Origin`.
// Turns go other, this, this, other, ... (--turns 2: ABBA), so a drift weighs on both alike.
// Prints per row: each turn's instructions per request, the means, and this/other.
// Options: --turns N (2), --warm N (40), --requests N (20), --idle S (10), --only a,b (dashboard, dashboard-de, content,
// dashboard-data, autosave, api). BENCH_KEEP=1 keeps each turn's folder (its dumps) in the system's
// temporary folder. Exits 2 without valgrind or the other tree's build.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { root } from "../tests/harness/launch.mjs";
import { SERVER_NODE_OPTIONS } from "../scripts/server-node-options.mjs";
import { signUpAsBrowser } from "./browser.mjs";
import { closeConnections, send } from "./scale-requests.mjs";
import { seedPieces } from "./scale-seed.mjs";
import { sqliteStore } from "./scale-store.mjs";
import { tableRows } from "./table-rows.mjs";
import { table } from "./table.mjs";

const { values, positionals } = parseArgs({
  args: process.argv.slice(3),
  allowPositionals: true,
  options: {
    turns: { type: "string", default: "2" },
    warm: { type: "string", default: "40" },
    requests: { type: "string", default: "20" },
    idle: { type: "string", default: "10" },
    only: { type: "string", default: "" },
  },
});
const TURNS = Number(values.turns);
const WARM = Number(values.warm);
const REQUESTS = Number(values.requests);
const IDLE_SECONDS = Number(values.idle);
const PIECES = 100;
const PASSWORD = "bench password 1234";
const SERVER_HOST = "127.0.0.1";

/** The rows (bench/table-rows.mjs), for a person of PIECES items. */
const ROWS = tableRows(PIECES).filter((row) => !values.only || values.only.split(",").includes(row.name));

function refuse(message) {
  console.error(`[bench] ${message}`);
  process.exit(2);
}

const other = positionals[0] ? path.resolve(positionals[0]) : null;
// "This" tree is the one the bench runs from, unless a second tree is named (two older trees compared).
const here = positionals[1] ? path.resolve(positionals[1]) : root;
if (!other)
  refuse("usage: npm run bench -- instructions <other tree> [<this tree>] [--turns N] [--warm N] [--requests N]");
const entryOf = (tree) => path.join(tree, "build/server-entry/index.js");
for (const tree of [here, other])
  if (!fs.existsSync(entryOf(tree))) refuse(`no build in ${tree}: run npm run build there`);
if (spawnSync("valgrind", ["--version"]).status !== 0) refuse("valgrind is needed (Debian: apt-get install valgrind)");

/** One tree's server under callgrind: { url, pid, stop }. */
async function startUnderCallgrind(tree, dataDir) {
  const child = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      // V8 writes the code it compiles into memory it then runs: callgrind must see every such write.
      "--smc-check=all-non-file",
      `--callgrind-out-file=${path.join(dataDir, "callgrind.out.%p")}`,
      process.execPath,
      ...SERVER_NODE_OPTIONS,
      // The inspector on a free loopback port: the bench has V8 collect all garbage before each counted
      // window (fullCollection), so a major collection the warm-up's garbage owes lands outside it.
      "--inspect=127.0.0.1:0",
      // V8's compilers and collector on the main thread: a function is optimized after the same calls
      // in every turn, not whenever a background thread happened to finish (callgrind runs one thread
      // at a time, so their timing moved with the machine).
      "--single-threaded",
      entryOf(tree),
    ],
    {
      cwd: tree,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: "0",
        HOST: SERVER_HOST,
        DATA_DIR: dataDir,
        SESSION_SECRET: "bench-session-secret-that-is-long-enough-0123456789",
        LOG_REQUESTS: "0",
        // Under callgrind a request arrives and is answered about 50 times slower than it would be.
        REQUEST_DEADLINE_SECONDS: "600",
        // A turn takes longer than an access token's 15 minutes; a refresh among the counted
        // requests would weigh on one row of one turn.
        ACCESS_TOKEN_MINUTES: "600",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let output = "";
  const inspector = () => /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 10 min:\n${output}`)), 600_000);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /running at http:\/\/[^:\s]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    });
    child.stderr.on("data", (chunk) => (output += chunk));
    void exited.then((code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  if (!inspector()) throw new Error(`the server's inspector did not say where it listens:\n${output}`);
  return {
    url,
    inspector: inspector(),
    pid: child.pid,
    output: () => output,
    stop: async () => (child.kill("SIGTERM"), await exited),
  };
}

/**
 * Has V8 collect all garbage in the server (the inspector's HeapProfiler.collectGarbage), so each
 * row's window starts from the same clean heap: without it, whether a major collection of the
 * warm-up's garbage fell inside 20 counted requests moved one build's /content/{id} from 13 M to 22 M.
 */
async function fullCollection(inspectorUrl) {
  const socket = new WebSocket(inspectorUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", () => reject(new Error(`no inspector at ${inspectorUrl}`)), { once: true });
  });
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no answer to HeapProfiler.collectGarbage in 5 min")), 300_000);
      socket.addEventListener("message", (event) => {
        const message = JSON.parse(String(event.data));
        if (message.id !== 1) return;
        clearTimeout(timer);
        if (message.error) reject(new Error(`HeapProfiler.collectGarbage: ${message.error.message}`));
        else resolve();
      });
      socket.send(JSON.stringify({ id: 1, method: "HeapProfiler.collectGarbage" }));
    });
  } finally {
    socket.close();
  }
}

/** Runs `callgrind_control` on the server; its output. */
function control(pid, ...args) {
  // vgdb finds the server's pipes by the HOST variable the server was started with (they are named
  // ...-on-<HOST>), and the server's HOST is its listen address.
  const result = spawnSync("callgrind_control", [...args, String(pid)], {
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, HOST: SERVER_HOST },
  });
  if (result.status !== 0) throw new Error(`callgrind_control ${args.join(" ")}: ${result.stderr || result.stdout}`);
  return result.stdout;
}

/**
 * The instructions every thread of the server has run since the counters were last zeroed: a dump
 * (`callgrind_control --dump`, which writes callgrind.out.<pid>.<n> beside the others, all threads in
 * one) read for its total.
 */
function instructionsSinceZero(pid, dataDir, label) {
  const before = new Set(fs.readdirSync(dataDir));
  control(pid, `--dump=${label}`);
  const dumped = fs
    .readdirSync(dataDir)
    .filter((name) => name.startsWith(`callgrind.out.${pid}.`) && !before.has(name));
  if (dumped.length !== 1)
    throw new Error(
      `callgrind wrote ${dumped.length} dumps for ${label} (pid ${pid}): ${fs.readdirSync(dataDir).join(", ")}`,
    );
  const text = fs.readFileSync(path.join(dataDir, dumped[0]), "utf8");
  // `summary:` is the part's cost; `totals:` sums every cost line, calls' inclusive costs included.
  const total = /^summary:\s*(\d+)/m.exec(text);
  if (!total) throw new Error(`no total in ${dumped[0]}`);
  return Number(total[1]);
}

/**
 * What the server runs when no request comes, in instructions a second, over IDLE_SECONDS: its timers
 * (the video runner's pass, housekeeping) and the inspector. A window of requests counts that too, for
 * as long as it lasts, and under callgrind it lasts about 50 times longer than the requests' own work,
 * longer still on a loaded machine: about 0.5 M of a row's 20 M, which moved with the machine.
 * The median of three slices: a one-off (a sweep after the start, a late compile) read 13 M a second in
 * one slice of one turn against the usual 1 M, and taken off a row it made 19 M read 12 M.
 */
async function idleInstructionsPerSecond(pid, dataDir, label) {
  const rates = [];
  for (let slice = 0; slice < 3; slice++) {
    control(pid, "-z");
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, (IDLE_SECONDS * 1000) / 3));
    const idle = instructionsSinceZero(pid, dataDir, `${label}-${slice}`);
    rates.push(idle / ((performance.now() - started) / 1000));
  }
  return rates.sort((a, b) => a - b)[1];
}

async function oneRequest(server, person, row, n) {
  const { path: target, ...options } = row.request(n, person.items[n % person.items.length]);
  const answer = await send(server.url, target, { cookie: person.cookie, ...options });
  if (answer.status !== 200) throw new Error(`${row.name}: ${target} answered ${answer.status}`);
}

/** One turn: the tree's server, a person, every row; instructions per request by row. */
async function turn(tree) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bench-instructions-"));
  const server = await startUnderCallgrind(tree, dataDir);
  try {
    const person = await signUpAsBrowser(server.url, PASSWORD);
    const store = sqliteStore(path.join(dataDir, "studio.sqlite"));
    await seedPieces(store, person.id, PIECES);
    await store.analyze();
    await store.close();
    const sqlite = new Database(path.join(dataDir, "studio.sqlite"), { readonly: true });
    person.items = sqlite.prepare("SELECT id FROM content_items WHERE user_id = ? ORDER BY id").pluck().all(person.id);
    sqlite.close();
    const perRequest = {};
    for (const row of ROWS) {
      for (let n = 0; n < WARM; n++) await oneRequest(server, person, row, n);
      closeConnections();
      await fullCollection(server.inspector);
      // Before the window, not after it: what a window's requests leave to do later (the memory
      // reducer's collection a few seconds on) is theirs, and counted after one it read as idle work.
      const idlePerSecond = await idleInstructionsPerSecond(server.pid, dataDir, `${row.name}-idle`);
      control(server.pid, "-z");
      const started = performance.now();
      for (let n = WARM; n < WARM + REQUESTS; n++) await oneRequest(server, person, row, n);
      const counted = instructionsSinceZero(server.pid, dataDir, row.name);
      const windowSeconds = (performance.now() - started) / 1000;
      closeConnections();
      perRequest[row.name] = (counted - idlePerSecond * windowSeconds) / REQUESTS;
      process.stdout.write(
        `[bench] ${path.basename(tree)} ${row.name}: ${(perRequest[row.name] / 1e6).toFixed(2)} M ` +
          `(${(counted / REQUESTS / 1e6).toFixed(2)} M counted, less ${(idlePerSecond / 1e6).toFixed(2)} M a second idle ` +
          `over ${windowSeconds.toFixed(1)} s)\n`,
      );
    }
    return perRequest;
  } catch (error) {
    console.error(`[bench] ${path.basename(tree)}'s turn failed; its server said:\n${server.output().slice(-4000)}`);
    throw error;
  } finally {
    await server.stop();
    if (!process.env.BENCH_KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const order = Array.from({ length: TURNS }, (_, i) => (i % 2 === 0 ? [other, here] : [here, other])).flat();
const readings = { [here]: [], [other]: [] };
for (const tree of order) readings[tree].push(await turn(tree));
const mean = (list) => list.reduce((sum, value) => sum + value, 0) / list.length;
const millions = (value) => (value / 1e6).toFixed(2);
table(
  `Instructions per request (millions, callgrind; Node ${process.versions.node}; ${WARM} warm-up and ${REQUESTS} counted requests a row; ` +
    `turns ${order.map((tree) => (tree === here ? "this" : "other")).join(", ")}; this: ${here}; other: ${other})`,
  ["request", "other, each turn", "this, each turn", "other", "this", "this/other"],
  ROWS.map(({ name }) => {
    const before = readings[other].map((reading) => reading[name]);
    const after = readings[here].map((reading) => reading[name]);
    return [
      name,
      before.map(millions).join(", "),
      after.map(millions).join(", "),
      millions(mean(before)),
      millions(mean(after)),
      `${(mean(after) / mean(before)).toFixed(3)}×`,
    ];
  }),
);
