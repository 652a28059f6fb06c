// `npm run abuse [-- sqlite|postgres ...]`: what a runaway script or an attacker would send, against
// the production build (BUILD_DIR respected), on SQLite and on PostgreSQL (default: both). Each probe
// module in probes/abuse/ exports `probes`: [{ name, expected, run(ctx) -> { seen, ok }, waits? }]. Prints one
// table (set-up, probe, expected, seen, holds) and exits 1 when any row does not hold. Loopback only,
// bounded in count and time.
//
// Every probe comes from client addresses of its own (X-Forwarded-For, with TRUST_PROXY=loopback), so
// one probe's flood never spends another's per-address budget. A probe marked `waits` spends its time
// waiting on the server's clock (a trickled body meeting a 30 s deadline): those start first and run
// beside the others, so a set-up takes about as long as its longest wait, not the sum of them.
import { hasBuild, serverBuildPath } from "../tests/harness/launch.mjs";
import { startSetup } from "../tests/harness/setups.mjs";
import { ABUSE_ENV, abuseContext } from "./abuse/client.mjs";

const MODULES = ["quota", "bounds", "ai-limits", "auth", "inputs", "slow-bodies"];
const SETUP_NAMES = ["sqlite", "postgres"];

const chosen = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const setupNames = chosen.length ? chosen : SETUP_NAMES;
for (const name of setupNames)
  if (!SETUP_NAMES.includes(name)) throw new Error(`unknown set-up "${name}": one of ${SETUP_NAMES.join(", ")}`);
if (!hasBuild()) {
  console.error(
    `[abuse] no production build at ${serverBuildPath()}: run \`npm run build\` first (BUILD_DIR respected)`,
  );
  process.exit(1);
}

const only = process.env.ABUSE_ONLY ? new RegExp(process.env.ABUSE_ONLY, "i") : null;
const probes = [];
for (const module of MODULES) {
  let loaded;
  try {
    loaded = await import(`./abuse/${module}.mjs`);
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes(`abuse/${module}.mjs`)) continue;
    throw error;
  }
  for (const probe of loaded.probes) if (!only || only.test(probe.name)) probes.push({ module, ...probe });
}

const rows = [];
for (const setupName of setupNames) {
  const setup = await startSetup(setupName, { extraEnv: ABUSE_ENV, log: process.env.ABUSE_LOG === "1" });
  try {
    console.log(`[abuse] ${setupName}: ${probes.length} probes at ${setup.url}`);
    const run = async (probe) => {
      const started = performance.now();
      let result;
      try {
        result = await probe.run(abuseContext(setup, probe.name));
      } catch (error) {
        result = { ok: false, seen: `error: ${error?.message ?? error}` };
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `[abuse] ${result.ok ? "holds" : "FAILS"}  ${setupName}  ${probe.name} (${seconds} s): ${result.seen}`,
      );
      return { setup: setupName, probe: probe.name, expected: probe.expected, seen: result.seen, ok: result.ok };
    };
    // The table keeps the probes' order, whichever finished first.
    const results = probes.map(() => null);
    const waiting = probes.map((probe, index) =>
      probe.waits ? run(probe).then((row) => (results[index] = row)) : null,
    );
    for (const [index, probe] of probes.entries()) if (!probe.waits) results[index] = await run(probe);
    await Promise.all(waiting);
    rows.push(...results);
  } finally {
    await setup.stop();
  }
}

const widths = {
  setup: Math.max(5, ...rows.map((row) => row.setup.length)),
  probe: Math.max(5, ...rows.map((row) => row.probe.length)),
  expected: Math.max(8, ...rows.map((row) => row.expected.length)),
  seen: Math.max(4, ...rows.map((row) => row.seen.length)),
};
const line = (cells) =>
  `| ${cells.setup.padEnd(widths.setup)} | ${cells.probe.padEnd(widths.probe)} | ${cells.expected.padEnd(widths.expected)} | ${cells.seen.padEnd(widths.seen)} | ${cells.holds.padEnd(5)} |`;
console.log("");
console.log(line({ setup: "setup", probe: "probe", expected: "expected", seen: "seen", holds: "holds" }));
console.log(
  `|${"-".repeat(widths.setup + 2)}|${"-".repeat(widths.probe + 2)}|${"-".repeat(widths.expected + 2)}|${"-".repeat(widths.seen + 2)}|-------|`,
);
for (const row of rows) console.log(line({ ...row, holds: row.ok ? "yes" : "NO" }));
const failed = rows.filter((row) => !row.ok).length;
console.log(`\n[abuse] ${rows.length - failed} of ${rows.length} probes hold`);
// The closing line .ci/run sums with the other steps'.
console.log(`${rows.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
