import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createTestDatabase, postgresTestServer } from "../support/postgres";

// `npm run bench -- scale` (bench/bench-scale.mjs) kept from rotting: one small round of it against the
// production build (its own server), and what it reports checked against what it seeded. Under
// `npm run test:pg` on a PostgreSQL database of its own, else on SQLite.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const LARGE = 260;
const LARGE_FILES = 30;

async function runBench(args: string[]): Promise<{ code: number | null; output: string }> {
  const postgres = postgresTestServer();
  const databaseUrl = postgres ? await createTestDatabase(postgres, "bench") : "";
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "bench/bench.mjs"), "scale", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

describe("npm run bench -- scale", () => {
  it("seeds both people, finds every count right and prints each row with its ratio", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "bench-scale-test-"));
    const report = path.join(folder, "scale.json");
    try {
      const run = await runBench([
        "--quick",
        "--rounds",
        "1",
        "--requests",
        "2",
        "--warm-up",
        "1",
        "--large",
        String(LARGE),
        "--files",
        String(LARGE_FILES),
        "--json",
        report,
      ]);
      expect(run.code, run.output).toBe(0);
      const result = JSON.parse(fs.readFileSync(report, "utf8"));
      expect(result.engine).toBe(postgresTestServer() ? "PostgreSQL" : "SQLite");

      expect(result.seeded.small).toMatchObject({ pieces: 100, files: 20, common: 20, rare: 3 });
      expect(result.seeded.large).toMatchObject({ pieces: LARGE, files: LARGE_FILES, common: LARGE / 5, rare: 3 });
      for (const side of ["small", "large"] as const) {
        const seeded = result.seeded[side];
        const checks = result.checks[side];
        expect(checks.total).toBe(seeded.pieces);
        expect(checks.walked).toBe(seeded.pieces);
        expect(checks.pages).toBe(Math.ceil(seeded.pieces / 100));
        expect(checks.searchCommon.onFirstPage).toBe(Math.min(seeded.common, 100));
        expect(checks.searchRare.onFirstPage).toBe(3);
        expect(checks.searchMiss.onFirstPage).toBe(0);
        expect(checks.libraryTotal).toBe(seeded.files);
        expect(checks.textBytes).toBe(seeded.textBytes);
        expect(checks.mediaBytes).toBe(seeded.bytes);
        expect(result.exports[side][0].entries).toBeGreaterThanOrEqual(seeded.pieces + seeded.files);
      }

      const names = result.rows.map((row: { name: string }) => row.name);
      expect(names).toEqual([
        "dashboard",
        "list-first",
        "list-last",
        "search-common",
        "search-rare",
        "search-miss",
        "autosave",
        "library",
        "export",
      ]);
      for (const row of result.rows) {
        expect(row.small.cpu, row.name).toBeGreaterThan(0);
        expect(row.large.cpu, row.name).toBeGreaterThan(0);
        expect(row.ratio, row.name).toBeCloseTo(row.large.cpu / row.small.cpu, 6);
        expect(run.output).toContain(`| ${row.label}`);
        if (row.name === "export") continue;
        // Two requests in one turn of each side (--quick's turn is two): one pair, its ratio the median.
        expect(row.small.turns, row.name).toHaveLength(1);
        expect(row.large.turns[0], row.name).toHaveLength(2);
        expect(row.pairRatios, row.name).toHaveLength(1);
        expect(row.medianRatio, row.name).toBeCloseTo(row.pairRatios[0], 6);
        expect(row.spread, row.name).toEqual([row.pairRatios[0], row.pairRatios[0]]);
        expect(row.within, row.name).toBe(row.flat ? row.medianRatio <= 1.3 && row.trimmedRatio <= 1.3 : null);
      }
      expect(run.output).toMatch(/large\/small/);
      expect(run.output).toMatch(/pairs: median/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 90_000);
});
