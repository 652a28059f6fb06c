// Export benchmark: one person with many files (default 1,000 videos of 300 KiB, about
// 293 MiB, plus 100 pieces of content) exports their account (GET /api/account/export) from the
// production build; reports the server's resident memory idle and at its peak during the export
// (sampled every 20 ms from /proc), the zip's size, the time and the throughput. The export streams,
// so the peak should stay near idle however large the library.
// Run: npm run build && node bench/bench-export.mjs [--files 1000] [--kib 300]   (BUILD_DIR selects the build)
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { launchServer, scratchFolder } from "../tests/harness/launch.mjs";
import { request, signUp } from "../tests/support/client.mjs";

const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const FILES = argument("--files", 1000);
const KIB = argument("--kib", 300);
const CONTENT = argument("--content", 100);
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
}));
const base = server.url;
const { token } = await signUp(base, { prefix: "bench-export" });

console.log(`[bench-export] uploading ${FILES} files of ${KIB} KiB and ${CONTENT} pieces of content ...`);
let next = 0;
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
for (let i = 0; i < CONTENT; i++) {
  const response = await request(base, "/api/content", {
    method: "POST",
    json: { title: `Note ${i}`, body: "Lorem ipsum dolor sit amet. ".repeat(200) },
    token,
  });
  if (response.status !== 201) throw new Error(`content ${i}: ${response.status}`);
}

// Idle: after a small export (warms the code path) and a pause.
await (await fetch(`${base}/api/project/none/export`, { headers: { Authorization: `Bearer ${token}` } })).arrayBuffer();
await sleep(2000);
const pid = server.pid;
const idle = rssMiB(pid);

let peak = idle;
const sampler = setInterval(() => {
  peak = Math.max(peak, rssMiB(pid));
}, 20);
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
clearInterval(sampler);
peak = Math.max(peak, rssMiB(pid));

const payloadMiB = (FILES * KIB) / 1024;
console.log(
  [
    `[bench-export] ${FILES} files (${payloadMiB.toFixed(0)} MiB) + ${CONTENT} pieces of content, disk store`,
    `  zip: ${(bytes / MIB).toFixed(1)} MiB in ${seconds.toFixed(2)} s (${(bytes / MIB / seconds).toFixed(0)} MiB/s), first byte after ${firstByteMs.toFixed(0)} ms`,
    `  server RSS: idle ${idle.toFixed(0)} MiB, peak during the export ${peak.toFixed(0)} MiB (+${(peak - idle).toFixed(0)} MiB)`,
  ].join("\n"),
);
await server.stop();
