import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_OPTIONS } from "../../scripts/server-node-options.mjs";
import { serverCommandArgs } from "../harness/launch.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const startScript: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;

/** The options `npm start` gives node: the words between `node` and the script. */
const startOptions = () => {
  const words = startScript.trim().split(/\s+/);
  expect(words[0]).toBe("node");
  return words.slice(1, words.indexOf("scripts/start.mjs"));
};

// V8's young generation as the server runs it (docs/decisions/0084): a loop that keeps a window of
// objects alive makes V8 grow its young generation, up to 2 x 64 MiB on Node 24 by default (its
// size passes 32 MiB within about 600,000 turns on this machine).
const YOUNG_GROWTH = `
const v8 = require("node:v8");
const ring = new Array(100000);
let most = 0;
for (let i = 0; i < 1200000; i++) {
  ring[i % ring.length] = { i, text: "x" + i };
  if (i % 20000 === 0) {
    most = Math.max(most, v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size);
    if (most > 32 * 1048576) break;
  }
}
console.log(most);
`;

describe("the server's node options (scripts/server-node-options.mjs)", () => {
  it("are on `npm start`'s command line, before the script", () => {
    expect(SERVER_NODE_OPTIONS.length).toBeGreaterThan(0);
    expect(startOptions()).toEqual(SERVER_NODE_OPTIONS);
  });

  it("are on the test launcher's command line, before the caller's own and the server", () => {
    const args = serverCommandArgs(["--trace-gc"]);
    expect(args.slice(0, SERVER_NODE_OPTIONS.length)).toEqual(SERVER_NODE_OPTIONS);
    expect(args.slice(SERVER_NODE_OPTIONS.length, -1)).toEqual(["--trace-gc"]);
    expect(args.at(-1)).toMatch(/server-entry[/\\]index\.js$/);
  });

  it("keep V8's young generation within 2 x 16 MiB under a sustained allocation rate", () => {
    const run = spawnSync(process.execPath, [...startOptions(), "-e", YOUNG_GROWTH], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const most = Number(run.stdout.trim());
    expect(most).toBeGreaterThan(8 * 1048576); // it did grow
    expect(most).toBeLessThanOrEqual(32 * 1048576);
  }, 30_000);
});
