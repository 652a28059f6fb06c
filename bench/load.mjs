// `npm run load [-- sqlite|postgres|cluster ...]`: 100 simulated people for 60 s against each set-up
// (default: all three), then every acknowledged write is read back. Prints requests, statuses, and
// p50/p95/p99 per kind; exits 1 on any 5xx, network error or lost write. Loopback only, bounded.
// LOAD_PEOPLE and LOAD_SECONDS adjust it.
import { printReport, runLoad, verifyWrites } from "./load-workload.mjs";
import { SETUPS, startSetup } from "../tests/harness/setups.mjs";

const people = Number(process.env.LOAD_PEOPLE ?? 100);
const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const chosen = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const setups = chosen.length ? chosen : SETUPS;

let failed = false;
const summary = [];
for (const name of setups) {
  const setup = await startSetup(name);
  try {
    console.log(
      `[load] ${name}: ${people} people for ${seconds} s at ${setup.url} (${setup.instances.length} instance(s))`,
    );
    const { recorder, crowd } = await runLoad(setup.url, { people, seconds });
    const verification = await verifyWrites(crowd);
    printReport(`${name}: ${people} people, ${seconds} s`, recorder, verification);
    const dashboard = recorder.table().find((row) => row.kind === "dashboard");
    const serverErrors = recorder.serverErrors();
    summary.push({
      name,
      requests: recorder.total,
      serverErrors,
      lost: verification.missing.length,
      checked: verification.checked,
      dashboardP95: dashboard?.p95 ?? 0,
    });
    if (serverErrors > 0 || verification.missing.length > 0) failed = true;
  } finally {
    await setup.stop();
  }
}

console.log("\n[load] set-up      requests   5xx+network   writes checked   lost   dashboard p95 ms");
for (const row of summary) {
  console.log(
    `[load] ${row.name.padEnd(10)} ${String(row.requests).padStart(9)} ${String(row.serverErrors).padStart(13)} ${String(row.checked).padStart(16)} ${String(row.lost).padStart(6)} ${row.dashboardP95.toFixed(1).padStart(18)}`,
  );
}
console.log(failed ? "[load] FAILED: server errors or lost writes" : "[load] no 5xx, nothing lost");
process.exit(failed ? 1 : 0);
