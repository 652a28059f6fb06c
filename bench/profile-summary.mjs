// Summarises a V8 CPU profile (`node --cpu-prof`, or `BENCH_PROFILE=<folder> npm run bench`): the
// functions and the packages (or app files) with the most self time, and the share of garbage
// collection, and the functions with the most total time (what they call included).
// Usage: node bench/profile-summary.mjs <file.cpuprofile> [top=25] [under]
// `under`: a function's name (e.g. performWork, React's render; handleRequest, the entry's render):
// only the samples with it on their stack count, and the header says their share of the busy time.
import fs from "node:fs";

const [file, topArg, under] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [top] [under]");
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(fs.readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
/** Whether a sample's stack holds `under` (every sample when no `under` is given). */
const underCache = new Map();
function isUnder(id) {
  if (!under) return true;
  if (!underCache.has(id)) {
    let found = false;
    for (let at = id; at !== undefined && !found; at = parentOf.get(at))
      found = byId.get(at).callFrame.functionName === under;
    underCache.set(id, found);
  }
  return underCache.get(id);
}
const selfMicros = new Map();
let busyMicros = 0;
let idleMicros = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const name = byId.get(profile.samples[i]).callFrame.functionName;
  if (name === "(idle)") idleMicros += profile.timeDeltas[i] ?? 0;
  else busyMicros += profile.timeDeltas[i] ?? 0;
  if (!isUnder(profile.samples[i])) continue;
  const delta = profile.timeDeltas[i] ?? 0;
  selfMicros.set(profile.samples[i], (selfMicros.get(profile.samples[i]) ?? 0) + delta);
}
let total = 0;
const byFunction = new Map();
const byPlace = new Map();
/** Where a function lives: an npm package, a file of the build, node's own code or the engine. */
function placeOf(url) {
  if (!url) return "(engine)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)(\/dist\/(development|production))?/.exec(url);
  if (pkg) return pkg[3] ? `${pkg[1]} (${pkg[3]})` : pkg[1];
  if (url.startsWith("node:")) return "(node)";
  return url.replace(/^file:\/\/.*?\/(build[^/]*\/)/, "$1");
}
for (const [id, micros] of selfMicros) {
  const node = byId.get(id);
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === "(idle)") continue;
  total += micros;
  const name = `${functionName || "(anonymous)"} ${placeOf(url)}:${lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  const place = placeOf(url);
  byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
}
// Inclusive ("total") time: a sample counts for every distinct function on its stack. Async code
// continues in microtasks, so an async function's total covers only its synchronous stretches.
const inclusive = new Map();
for (const [id, micros] of selfMicros) {
  const seen = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const { functionName, url, lineNumber } = byId.get(at).callFrame;
    if (!url || functionName === "(idle)") continue;
    const name = `${functionName || "(anonymous)"} ${placeOf(url)}:${lineNumber + 1}`;
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
  }
}
const pct = (micros) => `${((micros / total) * 100).toFixed(1).padStart(5)}%`;
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [name, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${pct(micros)}  ${name}`);
};
console.log(`${file}: ${(busyMicros / 1e6).toFixed(1)} s busy, ${(idleMicros / 1e6).toFixed(1)} s idle`);
if (under)
  console.log(
    `under ${under}: ${(total / 1e6).toFixed(2)} s, ${((total / busyMicros) * 100).toFixed(1)}% of the busy time (the shares below are of that)`,
  );
print("Self time by place", byPlace);
print("Self time by function", byFunction);
print("Total time by function (itself and what it calls)", inclusive);
