// @ts-check
// The floors of app/ (docs/decisions/0012-floors.md): each folder imports only from the floors below
// it. `node tests/harness/check-floors.mjs` prints the import graph's summary and every breach; the unit
// test tests/unit/floors.test.ts fails on any breach.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const appDir = path.join(root, "app");

/** Low to high. A door (routes, components, browser) may import any floor below the doors. */
export const FLOORS = ["common", "lib", "models", "ai", "services", "auth", "doors"];

/**
 * What each floor may import besides itself and the floors listed here (checked in addition to the order).
 * @type {Record<string, string[]>}
 */
const ALLOWED = {
  common: ["common"],
  lib: ["common", "lib"],
  models: ["common", "lib", "models"],
  // Adapters: plain inputs in, plain outputs out; no users, no models, no storage.
  ai: ["common", "lib", "ai"],
  services: ["common", "lib", "models", "ai", "services"],
  auth: ["common", "lib", "models", "auth"],
};

/**
 * The floor of a file under app/, by its first folder; the entry modules and the route map are doors.
 * @param {string} relative
 */
export function floorOf(relative) {
  const [top] = relative.split(path.sep);
  if (["common", "lib", "models", "ai", "services", "auth"].includes(top)) return top;
  return "doors";
}

/**
 * @param {string} dir
 * @returns {string[]}
 */
function walk(dir) {
  /** @type {string[]} */
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(full));
    else if (/\.(ts|tsx|mjs|js)$/.test(entry.name)) files.push(full);
  }
  return files;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;

/**
 * The app files a file imports (resolved paths relative to app/), ignoring packages and assets.
 * @param {string} file
 * @returns {{ specifier: string; relative: string }[]}
 */
export function importsOf(file) {
  const source = fs
    .readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  const found = [];
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    let target;
    if (specifier.startsWith("~/")) target = path.join(appDir, specifier.slice(2));
    else if (specifier.startsWith(".")) target = path.resolve(path.dirname(file), specifier);
    else continue;
    const relative = path.relative(appDir, target);
    if (relative.startsWith("..") || relative.includes("+types")) continue; // package.json, generated route types
    found.push({ specifier, relative });
  }
  return found;
}

/** Server code: a `.server` module, or anything on the floors between common and the doors. */
const isServerFile = (/** @type {string} */ relative) =>
  /\.server(\.[jt]sx?)?$/.test(relative) || !["common", "doors"].includes(floorOf(relative));

/** Every import that breaks a floor, as readable lines; and how many files and imports were read. */
export function checkFloors() {
  /** @type {string[]} */
  const breaches = [];
  let imports = 0;
  const files = walk(appDir);
  /** @type {Record<string, number>} */
  const counts = {};
  for (const file of files) {
    const from = path.relative(appDir, file);
    const fromFloor = floorOf(from);
    counts[fromFloor] = (counts[fromFloor] ?? 0) + 1;
    for (const { specifier, relative } of importsOf(file)) {
      imports++;
      const toFloor = floorOf(relative);
      const where = `app/${from} imports ${specifier}`;
      if (fromFloor !== "doors") {
        if (!ALLOWED[fromFloor].includes(toFloor))
          breaches.push(`${where}: the ${fromFloor} floor may not import ${toFloor}`);
        continue;
      }
      const [fromTop] = from.split(path.sep);
      const [toTop] = relative.split(path.sep);
      if (fromTop === "routes" && toTop === "routes") breaches.push(`${where}: routes never import routes`);
      if (isServerFile(from) && toTop === "browser") breaches.push(`${where}: server code never imports app/browser`);
      if ((fromTop === "browser" || fromTop === "components") && isServerFile(relative)) {
        breaches.push(`${where}: browser code never imports server code`);
      }
    }
  }
  return { files: files.length, imports, counts, breaches };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, imports, counts, breaches } = checkFloors();
  console.log(
    `[floors] ${files} files, ${imports} app imports; by floor: ${FLOORS.map((f) => `${f} ${counts[f] ?? 0}`).join(", ")}`,
  );
  for (const breach of breaches) console.log(`[floors] ${breach}`);
  console.log(`[floors] ${breaches.length} breach(es)`);
  process.exit(breaches.length ? 1 : 0);
}
