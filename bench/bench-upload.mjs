// Upload benchmark: streams a 1 GiB video to POST /api/videos/upload on the production build and
// reports the server's peak memory growth over its idle baseline (it must stay under 64 MiB: the
// upload streams to disk) and the throughput against a plain `cat` of the same bytes to a file.
// Run: node bench/bench-upload.mjs [--mib 1024] (builds first when BUILD_DIR, default build, has none)
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { ensureBuild, launchServer, scratchFolder } from "../tests/harness/launch.mjs";
import { signUp } from "../tests/support/client.mjs";

const mibArgument = process.argv.indexOf("--mib");
const MIB = 1024 * 1024;
const payloadMiB = mibArgument > 0 ? Number(process.argv[mibArgument + 1]) : 1024;
const RSS_LIMIT_MIB = 64;

ensureBuild((message) => console.log(`[bench-upload] ${message}`));

const scratch = scratchFolder("studio-bench-upload-");
const work = scratch.dir;
const bigFile = path.join(work, "big.mp4");
const copyFile = path.join(work, "copy.mp4");
const dataDir = path.join(work, "data");
let server;

/** An ISO-BMFF ftyp box (so the server accepts it as MP4) followed by `mib` MiB of random-looking bytes. */
function writeBigFile(mib) {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftypisom", 4, "latin1");
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write("isomiso2", 16, "latin1");
  const block = randomBytes(MIB);
  const fd = fs.openSync(bigFile, "w");
  fs.writeSync(fd, ftyp);
  for (let i = 0; i < mib; i++) {
    block.writeUInt32LE(i, 0); // every block a little different
    fs.writeSync(fd, block);
  }
  fs.closeSync(fd);
  return fs.statSync(bigFile).size;
}

function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

async function startServer() {
  server = scratch.server = await launchServer({
    // The person's storage quota (USER_STORAGE_QUOTA_MB, 1 GiB by default) must leave room for the upload.
    env: {
      DATA_DIR: dataDir,
      SESSION_SECRET: "bench-session-secret-that-is-long-enough-0123456789",
      USER_STORAGE_QUOTA_MB: String(Math.ceil(payloadMiB * 2) + 64),
    },
    stderr: "inherit",
  });
  return server.url;
}

/**
 * Streams the file as multipart/form-data (field `file`) with a Content-Length, like a browser.
 * Each upload needs its own `filename`: a name the user already has is refused (409).
 */
function streamUpload(base, token, file, filename) {
  const boundary = `----bench${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/api/videos/upload`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": length,
      },
    });
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode, body: text }));
    });
    request.on("error", reject);
    request.write(head);
    const body = fs.createReadStream(file, { highWaterMark: MIB });
    body.pipe(request, { end: false });
    body.on("end", () => request.end(tail));
    body.on("error", reject);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

console.log(`[bench-upload] writing ${payloadMiB} MiB of test video to ${work} ...`);
const size = writeBigFile(payloadMiB);

// The baseline throughput: the same bytes copied by cat (the file is in the page cache for both).
const catStarted = process.hrtime.bigint();
const cat = spawnSync("sh", ["-c", `cat "${bigFile}" > "${copyFile}"`]);
const catSeconds = Number(process.hrtime.bigint() - catStarted) / 1e9;
if (cat.status !== 0) throw new Error(`cat failed: ${cat.stderr}`);
fs.rmSync(copyFile);

const base = await startServer();
const { token } = await signUp(base, { prefix: "bench" });

// Warm up the upload path with a small file, then measure the idle baseline.
const warmFile = path.join(work, "warm.mp4");
const warmBytes = Buffer.alloc(MIB);
const bigFd = fs.openSync(bigFile, "r");
fs.readSync(bigFd, warmBytes, 0, MIB, 0);
fs.closeSync(bigFd);
fs.writeFileSync(warmFile, warmBytes);
for (let i = 0; i < 3; i++) {
  const warm = await streamUpload(base, token, warmFile, `warm-${i}.mp4`);
  if (warm.status !== 201) {
    console.error(`[bench-upload] warm-up upload failed: ${warm.status} ${warm.body}`);
    process.exit(1);
  }
}
await sleep(1000);
const idleSamples = [];
for (let i = 0; i < 20; i++) {
  idleSamples.push(rssMiB(server.pid));
  await sleep(50);
}
const baseline = idleSamples.sort((a, b) => a - b)[Math.floor(idleSamples.length / 2)];

let peak = baseline;
const sampler = setInterval(() => {
  try {
    peak = Math.max(peak, rssMiB(server.pid));
  } catch {
    // the server is gone; the upload will fail and say so
  }
}, 50);
const uploadStarted = process.hrtime.bigint();
const result = await streamUpload(base, token, bigFile, "bench.mp4");
const uploadSeconds = Number(process.hrtime.bigint() - uploadStarted) / 1e9;
clearInterval(sampler);
peak = Math.max(peak, rssMiB(server.pid));

if (result.status !== 201) {
  console.error(`[bench-upload] upload failed: ${result.status} ${result.body}`);
  process.exit(1);
}
const stored = JSON.parse(result.body);
if (stored.size !== size) {
  console.error(`[bench-upload] stored ${stored.size} bytes, sent ${size}`);
  process.exit(1);
}

const mibPerSecond = (seconds) => size / MIB / seconds;
const growth = peak - baseline;
const rows = [
  ["payload", `${(size / MIB).toFixed(0)} MiB (ftyp + random bytes)`],
  ["server RSS idle (median)", `${baseline.toFixed(1)} MiB`],
  ["server RSS peak during upload", `${peak.toFixed(1)} MiB`],
  ["peak RSS growth", `${growth.toFixed(1)} MiB (limit ${RSS_LIMIT_MIB} MiB)`],
  ["upload (HTTP multipart -> disk)", `${uploadSeconds.toFixed(2)} s, ${mibPerSecond(uploadSeconds).toFixed(0)} MiB/s`],
  ["cat file > copy", `${catSeconds.toFixed(2)} s, ${mibPerSecond(catSeconds).toFixed(0)} MiB/s`],
  ["upload / cat throughput", `${((mibPerSecond(uploadSeconds) / mibPerSecond(catSeconds)) * 100).toFixed(0)} %`],
];
const width = Math.max(...rows.map(([name]) => name.length));
console.log("");
for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
console.log("");
// Stop the server and remove the temporary files before judging (the child keeps the process alive).
await server.stop();
scratch.server = null;
scratch.remove();
if (growth > RSS_LIMIT_MIB) {
  console.error(
    `[bench-upload] FAIL: memory grew by ${growth.toFixed(1)} MiB during the upload (limit ${RSS_LIMIT_MIB} MiB)`,
  );
  process.exitCode = 1;
} else {
  console.log(
    `[bench-upload] OK: memory stayed within ${RSS_LIMIT_MIB} MiB of idle while streaming ${(size / MIB).toFixed(0)} MiB to disk`,
  );
}
