// Export benchmark: one person with many files (default 1,000 videos of 300 KiB, about
// 293 MiB, plus 100 pieces of content) exports their account (GET /api/account/export) from the
// production build; reports the server's resident memory idle and at its peak during the export
// (sampled every 20 ms from /proc), the zip's size, the time and the throughput. The export streams,
// so the peak should stay near idle however large the library.
// Run: npm run build && node bench/bench-export.mjs [--files 1000] [--kib 300] [--repeat 1]   (BUILD_DIR selects the build)
// --direct seeds the person straight into the database and the disk store instead of through the API
// (default then 10,000 pieces of content, a fifth of them with two kept versions, and 1,000 files: the
// large person of docs/decisions/0078), and also reports the server's CPU time for the export.
// BENCH_NODE_ARGS: more options for the server's node (e.g. `--trace-gc`), space-separated, as in bench.mjs.
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { launchServer, scratchFolder } from "../tests/harness/launch.mjs";
import { request, signUp } from "../tests/support/client.mjs";

const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const DIRECT = process.argv.includes("--direct");
const FILES = argument("--files", 1000);
const KIB = argument("--kib", 300);
const CONTENT = argument("--content", DIRECT ? 10_000 : 100);
// --repeat N: N exports one after the other on the same server, each measured from the RSS before it.
const REPEAT = argument("--repeat", 1);
const PARALLEL = 4;
const MIB = 1024 * 1024;

const scratch = scratchFolder("studio-bench-export-");
const work = scratch.dir;

const rssMiB = (pid, field = "VmRSS") =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An MP4 start (ftyp box) and random bytes: accepted as a video, incompressible like real media. */
function videoBytes(bytes, seed) {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftypisom", 4, "latin1");
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write("isomiso2", 16, "latin1");
  const body = randomBytes(bytes - ftyp.length);
  body.writeUInt32LE(seed, 0);
  return Buffer.concat([ftyp, body]);
}

const server = (scratch.server = await launchServer({
  env: {
    DATA_DIR: path.join(work, "data"),
    SESSION_SECRET: "bench-session-secret-that-is-long-enough-0123456789",
    USER_STORAGE_QUOTA_MB: String(Math.ceil((FILES * KIB) / 1024) + 256),
  },
  stderr: "inherit",
  nodeArgs: (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
}));
const base = server.url;
const { token, id: userId } = await signUp(base, { prefix: "bench-export" });

/** CPU seconds (user + system) the process has used, from /proc. */
const cpuSeconds = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** The person straight into the database and the disk store, as the models would keep them. */
function seedDirectly() {
  const sqlite = new Database(path.join(work, "data", "studio.sqlite"));
  sqlite.pragma("busy_timeout = 5000");
  const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".split(" ");
  const start = Date.now() - CONTENT * 60_000;
  const piece = sqlite.prepare(
    "INSERT INTO content_items (id, user_id, title, body, pinned, created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?)",
  );
  const version = sqlite.prepare(
    "INSERT INTO content_versions (id, content_id, user_id, title, body, reason, created_at) VALUES (?, ?, ?, ?, ?, 'save', ?)",
  );
  const file = sqlite.prepare(
    "INSERT INTO media_files (id, user_id, kind, name, content_type, size, created_at, updated_at) VALUES (?, ?, 'video', ?, 'video/mp4', ?, ?, ?)",
  );
  const objects = path.join(work, "data", "media", "objects");
  sqlite.transaction(() => {
    for (let i = 0; i < CONTENT; i++) {
      const stamp = new Date(start + i * 60_000).toISOString();
      const body = Array.from({ length: 100 + ((i * 37) % 1500) }, (_, j) => words[(i + j) % words.length]).join(" ");
      const id = randomUUID();
      const title = `Note ${i + 1}: ${words[i % words.length]}`;
      piece.run(id, userId, title, body, stamp, stamp);
      if (i % 5 === 0) for (const n of [1, 2]) version.run(randomUUID(), id, userId, title, body.slice(n * 10), stamp);
    }
    for (let i = 0; i < FILES; i++) {
      const key = randomUUID().replaceAll("-", "");
      const bytes = videoBytes(KIB * 1024, i);
      fs.mkdirSync(path.join(objects, key.slice(0, 2)), { recursive: true });
      fs.writeFileSync(path.join(objects, key.slice(0, 2), key), bytes);
      const stamp = new Date(start + i * 1000).toISOString();
      file.run(key, userId, `clip ${String(i).padStart(4, "0")}.mp4`, bytes.length, stamp, stamp);
    }
  })();
  // Into the database file now, so the server's first write does not checkpoint the seeding's WAL mid-export.
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.close();
}

console.log(
  `[bench-export] ${DIRECT ? "seeding" : "uploading"} ${FILES} files of ${KIB} KiB and ${CONTENT} pieces of content ...`,
);
if (DIRECT) seedDirectly();
let next = DIRECT ? FILES : 0;
async function uploader() {
  while (next < FILES) {
    const i = next++;
    const form = new FormData();
    form.append("file", new Blob([videoBytes(KIB * 1024, i)]), `clip ${String(i).padStart(4, "0")}.mp4`);
    const response = await fetch(`${base}/api/videos/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    if (response.status !== 201) throw new Error(`upload ${i}: ${response.status} ${await response.text()}`);
  }
}
await Promise.all(Array.from({ length: PARALLEL }, uploader));
for (let i = 0; i < (DIRECT ? 0 : CONTENT); i++) {
  const response = await request(base, "/api/content", {
    method: "POST",
    json: { title: `Note ${i}`, body: "Lorem ipsum dolor sit amet. ".repeat(200) },
    token,
  });
  if (response.status !== 201) throw new Error(`content ${i}: ${response.status}`);
}

// Idle: after a small export (warms the code path) and a pause.
// (Tried twice: after a long direct seeding the client's kept-alive socket may have been closed by the server.)
const warmUp = async () =>
  (await fetch(`${base}/api/project/none/export`, { headers: { Authorization: `Bearer ${token}` } })).arrayBuffer();
await warmUp().catch(warmUp);
await sleep(2000);
const pid = server.pid;
const payloadMiB = (FILES * KIB) / 1024;

/** One export, measured from the server's RSS just before it (the first is against the idle server). */
async function exportOnce(turn) {
  const idle = rssMiB(pid);

  let peak = idle;
  const idleParts = { anon: rssMiB(pid, "RssAnon"), file: rssMiB(pid, "RssFile") };
  let peakParts = idleParts;
  const sampler = setInterval(() => {
    const now = rssMiB(pid);
    if (now > peak) [peak, peakParts] = [now, { anon: rssMiB(pid, "RssAnon"), file: rssMiB(pid, "RssFile") }];
  }, 20);
  const cpuBefore = cpuSeconds(pid);
  const started = process.hrtime.bigint();
  const response = await fetch(`${base}/api/account/export`, { headers: { Authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`export: ${response.status}`);
  let firstByteMs = null;
  let bytes = 0;
  for await (const chunk of response.body) {
    firstByteMs ??= Number(process.hrtime.bigint() - started) / 1e6;
    bytes += chunk.byteLength;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = cpuSeconds(pid) - cpuBefore;
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB(pid));
  await sleep(1000);
  const after = rssMiB(pid);

  console.log(
    [
      `[bench-export]${turn > 1 ? ` export ${turn} on the same server:` : ""} ${FILES} files (${payloadMiB.toFixed(0)} MiB) + ${CONTENT} pieces of content, disk store${DIRECT ? " (seeded directly)" : ""}`,
      `  zip: ${(bytes / MIB).toFixed(1)} MiB in ${seconds.toFixed(2)} s (${(bytes / MIB / seconds).toFixed(0)} MiB/s), first byte after ${firstByteMs.toFixed(0)} ms`,
      `  server RSS: idle ${idle.toFixed(0)} MiB, peak during the export ${peak.toFixed(0)} MiB (+${(peak - idle).toFixed(0)} MiB), 1 s after ${after.toFixed(0)} MiB`,
      `  of which anonymous ${idleParts.anon.toFixed(0)} -> ${peakParts.anon.toFixed(0)} MiB, file-backed ${idleParts.file.toFixed(0)} -> ${peakParts.file.toFixed(0)} MiB`,
      `  server CPU: ${cpu.toFixed(2)} s for the export (${(bytes / MIB / cpu).toFixed(0)} MiB per CPU second)`,
    ].join("\n"),
  );
}

for (let turn = 1; turn <= REPEAT; turn++) {
  if (turn > 1) await sleep(2000);
  await exportOnce(turn);
}
await server.stop();
