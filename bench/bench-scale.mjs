// `npm run bench -- scale`: what a person's requests cost as their work grows (docs/performance.md,
// "Scale"). Starts the production build (building it first if there is none) on SQLite (PostgreSQL:
// DATABASE_URL, or --postgres for a throwaway cluster; its backends' CPU is then counted too) with a
// temporary DATA_DIR, signs two people up and in as a browser does, and seeds straight into the
// database and the file store (bench/scale-seed.mjs, decision 0079) a "small" person (100 text
// pieces, 20 files) and a "large" one (100,000 pieces, 1,000 files). It checks once that the server
// answers both rightly (the list's total, every page walked by `Link rel=next` exactly once, the
// searches' totals, the library's total, the export's entries), then measures each row's requests one
// at a time, the server's CPU per request (its threads' run time from /proc, read when the server has
// gone quiet) and the latency. Before each read the person's content version is moved in the
// database (by this process, costing the server nothing), so no answer comes from a kept list or page:
// every one is read and rendered fresh. That write empties the server's SQLite page cache (another
// connection wrote), so each measured request follows an unmeasured one that reads the same rows under
// another key (scale-requests.mjs, `warm`): the pages are then in the cache, as they are for a person
// using the app, and only the measured requests' CPU counts.
// A request costs about 2 ms here and one in a few dozen costs ten times that (V8's helper threads
// collecting garbage, a busy machine), so each row's requests go in many short turns, small and large
// by pairs in ABBA order (bench/scale-stats.mjs): a change in the machine's load weighs on both alike.
// Prints: row, small and large CPU per request (the mean of every measured request), large/small, the
// same ratio of trimmed means, the median and range of the pairs' ratios, and "OVER" where a row that
// should stay flat costs more than 1.3× as much for the large person (by the median of the pairs or
// the trimmed means); then the export's throughput and the server's memory growth. Timings never fail
// the run; wrong answers do.
// Options: --rounds N (3), --quick (1,000 pieces for the large person: a smoke run), --large N
// (100,000), --small N (100), --files N (the large person's files: 1,000), --small-files N (20),
// --requests N (each row's requests per person per round: 64; 8 with --quick), --turn N (requests a
// turn: 4; 2 with --quick), --warm-up N (each row's requests per person before the first round, not
// measured: 30; 5 with --quick), --only a,b (rows by name: dashboard, list-first, list-last,
// search-common, search-rare, search-miss, autosave, library, export), --print-turns (every turn's
// readings after the table), --json <file> (the seed, the checks, the figures and every reading).
import fs from "node:fs";
import path from "node:path";
import { ensureBuild, launchServer, scratchFolder } from "../tests/harness/launch.mjs";
import { startPgCluster } from "../tests/harness/pg-cluster.mjs";
import { preciseCpuMs, rssMiB, signUpAsBrowser } from "./browser.mjs";
import { checkPerson, exportAccount, ROWS } from "./scale-requests.mjs";
import { seedFiles, seedPieces } from "./scale-seed.mjs";
import { isFlat, median, summarize, turnOrder } from "./scale-stats.mjs";
import { databaseCpuBetween, postgresStore, sqliteStore } from "./scale-store.mjs";
import { table } from "./table.mjs";

const args = process.argv.slice(2).filter((arg) => arg !== "scale");
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 && index + 1 < args.length ? args[index + 1] : fallback;
};
const whole = (name, fallback) => {
  const value = Number(option(name, fallback));
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number of at least 1`);
  return value;
};
const QUICK = args.includes("--quick");
const ROUNDS = whole("--rounds", 3);
const SMALL = whole("--small", 100);
const LARGE = whole("--large", QUICK ? 1_000 : 100_000);
const SMALL_FILES = whole("--small-files", 20);
const LARGE_FILES = whole("--files", 1_000);
const REQUESTS = whole("--requests", QUICK ? 8 : 64);
/** A turn's requests: short turns by pairs in ABBA order, so the machine's load weighs on both alike. */
const TURN = Math.min(whole("--turn", QUICK ? 2 : 4), REQUESTS);
const PAIRS = Math.ceil(REQUESTS / TURN);
/** Each row's requests per person before the first round, unmeasured: the server's code compiled and warm for both. */
const WARM_ROUND = whole("--warm-up", QUICK ? 5 : 30);
const PRINT_TURNS = args.includes("--print-turns");
const ONLY = (option("--only", "") ?? "").split(",").filter(Boolean);
const JSON_FILE = option("--json", null);
/** A row that should not grow with the person's work may cost at most this much more for the large person. */
const FLAT = 1.3;
const PASSWORD = "bench password 1234";

const log = (message) => process.stdout.write(`[bench scale] ${message}\n`);
const number = (value) => value.toLocaleString("en-US");

const wanted = (name) => ONLY.length === 0 || ONLY.includes(name);
const unknown = ONLY.filter((name) => name !== "export" && !ROWS.some((row) => row.name === name));
if (unknown.length) throw new Error(`--only: no row named ${unknown.join(", ")}`);

ensureBuild(log);
const scratch = scratchFolder("studio-bench-scale-");
const dataDir = path.join(scratch.dir, "data");
// PostgreSQL: DATABASE_URL's database (one of its own: the seed stays there), or with --postgres a
// throwaway cluster on this machine; else SQLite in the temporary DATA_DIR.
const cluster = args.includes("--postgres") ? await startPgCluster({ database: "bench_scale" }) : null;
const databaseUrl = cluster?.url ?? process.env.DATABASE_URL ?? "";
let store = null;
try {
  const server = (scratch.server = await launchServer({
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      DATABASE_FILE: "",
      STORAGE_URL: "",
      SESSION_SECRET: "bench-session-secret-that-is-long-enough-0123456789",
      // The large person's text alone is some 60 MiB; the quota is not what is measured.
      USER_STORAGE_QUOTA_MB: "100000",
    },
    // BENCH_NODE_ARGS: more options for the server's node (e.g. `--trace-gc`), space-separated, as for bench.mjs.
    nodeArgs: (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
  }));
  const base = server.url;
  store = databaseUrl ? await postgresStore(databaseUrl) : sqliteStore(path.join(dataDir, "studio.sqlite"));

  log(
    `server at ${base} (Node ${process.versions.node}, ${store.engine}), seeding ${number(SMALL)} and ${number(LARGE)} pieces...`,
  );
  const people = {};
  for (const [side, pieces, files, seed] of [
    ["small", SMALL, SMALL_FILES, 1],
    ["large", LARGE, LARGE_FILES, 2],
  ]) {
    const person = await signUpAsBrowser(base, PASSWORD);
    const started = Date.now();
    const seeded = {
      ...(await seedPieces(store, person.id, pieces)),
      ...(await seedFiles(store, path.join(dataDir, "media"), person.id, files, seed + 10)),
    };
    person.editedId = seeded.editedId;
    people[side] = { person, seeded, seedMs: Date.now() - started };
    log(
      `${side}: ${number(pieces)} pieces (${seeded.common} with the common word), ${number(files)} files, in ${Date.now() - started} ms`,
    );
  }
  await store.analyze();

  log("checking what the server answers for both...");
  for (const side of ["small", "large"]) {
    const { person, seeded } = people[side];
    const checks = await checkPerson(base, person, seeded);
    people[side].checks = checks;
    const problems = [
      checks.total !== seeded.pieces && `X-Total-Count ${checks.total}, seeded ${seeded.pieces}`,
      checks.walked !== seeded.pieces && `walking the pages found ${checks.walked} pieces, seeded ${seeded.pieces}`,
      checks.searchCommon.total !== null &&
        checks.searchCommon.total !== seeded.common &&
        `the common word: ${checks.searchCommon.total} found, ${seeded.common} seeded`,
      checks.searchCommon.onFirstPage !== Math.min(seeded.common, 100) &&
        `the common word: ${checks.searchCommon.onFirstPage} on the first page`,
      checks.searchRare.onFirstPage !== seeded.rare &&
        `the rare word: ${checks.searchRare.onFirstPage} found, ${seeded.rare} seeded`,
      (checks.searchMiss.onFirstPage !== 0 || (checks.searchMiss.total ?? 0) !== 0) &&
        "the absent word found something",
      checks.libraryTotal !== seeded.files && `the library says ${checks.libraryTotal} files, seeded ${seeded.files}`,
      checks.textBytes !== seeded.textBytes && `text counted ${checks.textBytes} bytes, seeded ${seeded.textBytes}`,
      checks.mediaBytes !== seeded.bytes && `files counted ${checks.mediaBytes} bytes, seeded ${seeded.bytes}`,
    ].filter(Boolean);
    if (problems.length) throw new Error(`${side}: ${problems.join("; ")}`);
    log(
      `${side}: ${number(checks.total)} pieces in ${checks.pages} pages (${checks.paging} paging), searches, library and storage counters right`,
    );
  }

  /** The row's n-th request for the person, read fresh: their content version moved first. */
  async function fresh(row, person, n) {
    await store.bump(person.id);
    return row.request(base, person, n);
  }

  /**
   * The CPU ms the server, and the database when it is another process here, have used so far, read
   * once the server has gone quiet (its threads' run time still for a millisecond, at most 20 ms
   * waited): the work an answer leaves behind (the socket's last write, a collection it set off) then
   * counts for that request, not for whatever the next window holds.
   */
  async function cpuNow() {
    let serverMs = preciseCpuMs(server.pid);
    for (let tries = 0; tries < 20; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const again = preciseCpuMs(server.pid);
      const still = again - serverMs < 0.02;
      serverMs = again;
      if (still) break;
    }
    return { server: serverMs, database: await store.cpu() };
  }
  const cpuSince = async (before) => {
    const now = await cpuNow();
    const database = databaseCpuBetween(before.database, now.database);
    return { total: now.server - before.server + database, database };
  };

  /**
   * One turn of a row for one person, `count` requests: each one's CPU (ms), the database's part, and
   * latency (ms). Only the measured requests' CPU counts: the bump and the row's warming request (see
   * ROWS) come before each.
   */
  async function turn(row, person, first, count) {
    const each = [];
    const database = [];
    const latencies = [];
    for (let n = 0; n < count; n++) {
      const at = first + n;
      await store.bump(person.id);
      if (row.warm) await row.warm(base, person, at);
      const cpuBefore = await cpuNow();
      latencies.push((await row.request(base, person, at)).ms);
      const cpu = await cpuSince(cpuBefore);
      each.push(cpu.total);
      database.push(cpu.database);
    }
    return { each, database, latencies };
  }

  /** One export for one person, with the server's memory sampled every 20 ms while it streams. */
  async function exportTurn(person, seeded) {
    const rssBefore = rssMiB(server.pid);
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.pid))), 20);
    const cpuBefore = await cpuNow();
    const result = await exportAccount(base, person).finally(() => clearInterval(sampler));
    const cpu = await cpuSince(cpuBefore);
    peak = Math.max(peak, rssMiB(server.pid));
    if (result.entries === null || result.entries < seeded.pieces + seeded.files)
      throw new Error(
        `the export holds ${result.entries} entries, fewer than ${seeded.pieces} pieces and ${seeded.files} files`,
      );
    return {
      cpu: cpu.total,
      databaseCpu: cpu.database,
      ms: result.ms,
      bytes: result.bytes,
      entries: result.entries,
      mibPerSecond: result.bytes / 1048576 / (result.ms / 1000),
      rssBefore,
      rssPeak: peak,
      rssGrowth: peak - rssBefore,
      rssAfter: rssMiB(server.pid),
    };
  }

  const rows = ROWS.filter((row) => wanted(row.name)).map((row) => ({ ...row, turns: [] }));
  const exports = { small: [], large: [] };
  log(
    `${WARM_ROUND} requests per row and person to warm up, then ${ROUNDS} round(s): each row's ${REQUESTS} requests per person in turns of ${TURN}, small and large in ABBA order...`,
  );
  for (const row of rows)
    for (const side of ["small", "large"])
      for (let n = 0; n < WARM_ROUND; n++) await fresh(row, people[side].person, -1 - n);
  for (let round = 0; round < ROUNDS; round++) {
    const first = round % 2 === 0 ? "small" : "large";
    for (const row of rows) {
      const sent = { small: 0, large: 0 };
      for (const side of turnOrder(PAIRS, first)) {
        const count = Math.min(TURN, REQUESTS - sent[side]);
        const measured = await turn(row, people[side].person, round * 1_000_000 + sent[side], count);
        sent[side] += count;
        row.turns.push({ side, round, ...measured });
      }
    }
    if (wanted("export"))
      for (const side of first === "small" ? ["small", "large"] : ["large", "small"])
        exports[side].push(await exportTurn(people[side].person, people[side].seeded));
    log(`round ${round + 1} of ${ROUNDS} done`);
  }

  const ms = (value) => `${value.toFixed(3)} ms`;
  const times = (value) => `${value.toFixed(2)}×`;
  const figures = rows.map((row) => {
    const summary = summarize(row.turns);
    const side = (name) => {
      const turns = row.turns.filter((t) => t.side === name);
      return {
        ...summary[name],
        databaseCpu: turns.reduce((sum, t) => sum + t.database.reduce((a, b) => a + b, 0), 0) / summary[name].requests,
        ms: median(turns.flatMap((t) => t.latencies)),
        turns: turns.map((t) => t.each),
      };
    };
    return {
      name: row.name,
      label: row.label,
      flat: row.flat,
      small: side("small"),
      large: side("large"),
      ratio: summary.ratio,
      trimmedRatio: summary.trimmedRatio,
      medianRatio: summary.medianRatio,
      spread: summary.spread,
      pairRatios: summary.pairRatios,
      within: row.flat ? isFlat(summary, FLAT) : null,
    };
  });
  if (wanted("export")) {
    const small = median(exports.small.map((t) => t.cpu));
    const large = median(exports.large.map((t) => t.cpu));
    figures.push({
      name: "export",
      label: "`GET /api/account/export` (whole zip)",
      flat: false,
      small: { cpu: small, ms: median(exports.small.map((t) => t.ms)) },
      large: { cpu: large, ms: median(exports.large.map((t) => t.ms)) },
      ratio: large / small,
    });
  }
  table(
    `${ROUNDS} round(s), ${REQUESTS} requests a row and person each, in turns of ${TURN} by pairs (ABBA), ${store.engine}, Node ${process.versions.node}: small = ${number(SMALL)} pieces and ${SMALL_FILES} files, large = ${number(LARGE)} pieces and ${number(LARGE_FILES)} files. CPU per request: the server's (and the database's when it is another process on this machine), the mean of every measured request; "trimmed": without each side's 5% highest and lowest; "pairs": the median and the range of the ratios of each pair of turns. Flat: the median of the pairs and the trimmed ratio both within ${FLAT}× (export: median of the exports)`,
    [
      "request",
      "small CPU/req",
      "large CPU/req",
      "large/small",
      "trimmed",
      "pairs: median",
      "pairs: min–max",
      `flat (≤ ${FLAT}×)`,
    ],
    figures.map((row) => [
      row.label,
      ms(row.small.cpu),
      ms(row.large.cpu),
      times(row.ratio),
      row.trimmedRatio === undefined ? "" : times(row.trimmedRatio),
      row.medianRatio === undefined ? "" : times(row.medianRatio),
      row.spread ? `${row.spread[0].toFixed(2)}–${row.spread[1].toFixed(2)}` : "",
      row.flat ? (row.within ? "yes" : "OVER") : "",
    ]),
  );
  if (PRINT_TURNS)
    for (const row of rows) {
      process.stdout.write(`\n${row.name}, CPU ms per request of each turn (side: requests):\n`);
      for (const t of row.turns)
        process.stdout.write(
          `  round ${t.round + 1} ${t.side.padEnd(5)} ${t.each.map((v) => v.toFixed(2)).join(" ")}\n`,
        );
    }
  if (wanted("export")) {
    // The server's memory before its first export: the "first export on a fresh server" growth.
    const first = Math.min(...[...exports.small, ...exports.large].map((t) => t.rssBefore));
    const line = (side) => {
      const turns = exports[side];
      const mib = (value) => `${value.toFixed(1)} MiB`;
      return (
        `  ${side}: ${mib(turns[0].bytes / 1048576)}, ${number(turns[0].entries)} entries, ` +
        `${median(turns.map((t) => t.mibPerSecond)).toFixed(1)} MiB/s (median); server RSS grew at most ` +
        `${mib(Math.max(...turns.map((t) => t.rssGrowth)))} during one, peaked ${mib(Math.max(...turns.map((t) => t.rssPeak)) - first)} ` +
        `over its RSS before the first export, and kept ${mib(Math.max(...turns.map((t) => t.rssAfter)) - first)} after`
      );
    };
    process.stdout.write(
      `\nThe export (targets for the large person: ≥ 10 MiB/s, RSS growth ≤ 64 MiB):\n${line("small")}\n${line("large")}\n`,
    );
  }
  const over = figures.filter((row) => row.flat && !row.within).map((row) => row.name);
  process.stdout.write(
    over.length ? `\nOver ${FLAT}×: ${over.join(", ")}\n` : `\nEvery paged and search row within ${FLAT}×\n`,
  );
  if (JSON_FILE) {
    const seededOf = (side) => ({ ...people[side].seeded, editedId: undefined, seedMs: people[side].seedMs });
    fs.writeFileSync(
      JSON_FILE,
      JSON.stringify(
        {
          node: process.versions.node,
          engine: store.engine,
          options: {
            rounds: ROUNDS,
            requests: REQUESTS,
            turn: TURN,
            small: SMALL,
            large: LARGE,
            smallFiles: SMALL_FILES,
            largeFiles: LARGE_FILES,
          },
          seeded: { small: seededOf("small"), large: seededOf("large") },
          checks: { small: people.small.checks, large: people.large.checks },
          rows: figures,
          exports,
        },
        null,
        2,
      ),
    );
  }
} finally {
  await store?.close();
  await scratch.server?.stop();
  await cluster?.stop();
  scratch.remove();
}
