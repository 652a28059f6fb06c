// Library benchmark (decision 0022): one person with many files (default 1,000: photos, camera clips, voice
// memos, voice clips and generated speech, saved through the API as people do) and how fast the
// library's first page comes back from the production build: the median and p90 wall time of
// GET /library (the screen, server-rendered) and GET /api/library over loopback (so almost all of it is
// server time), after a few warm-up requests, plus what the person sees (files a page, pages, bytes of
// the page). Also a filtered page (kind + search) and the last page.
// Run: npm run build && node bench/bench-library.mjs [--files 1000] [--runs 21]   (BUILD_DIR selects the build)
import path from "node:path";
import { performance } from "node:perf_hooks";
import { launchServer, scratchFolder } from "../tests/harness/launch.mjs";
import { signInWithForm, signUp } from "../tests/support/client.mjs";

const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const FILES = argument("--files", 1000);
const RUNS = argument("--runs", 21);
const PARALLEL = 4;

const scratch = scratchFolder("studio-bench-library-");
const work = scratch.dir;

const PNG_HEAD = Buffer.from("89504e470d0a1a0a0000000d49484452000000400000003008060000001f15c489", "hex");
const WEBM_HEAD = Buffer.from([
  0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d,
]);
function m4a(size) {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftypM4A ", 4, "latin1");
  ftyp.write("M4A isom", 16, "latin1");
  return Buffer.concat([ftyp, Buffer.alloc(size, 7)]);
}
const SAMPLES = [
  {
    kind: "photo",
    name: (i) => `camera-matrix-${i}.png`,
    bytes: (i) => Buffer.concat([PNG_HEAD, Buffer.alloc(2000 + (i % 50) * 100, 1)]),
  },
  {
    kind: "clip",
    name: (i) => `camera-clip-${i}.webm`,
    bytes: (i) => Buffer.concat([WEBM_HEAD, Buffer.alloc(20_000 + (i % 30) * 500, 2)]),
  },
  { kind: "memo", name: (i) => `voice-memo-${i}.m4a`, bytes: (i) => m4a(5000 + (i % 20) * 200) },
];

const server = (scratch.server = await launchServer({
  // The seed's one person generates speech from several workers at once: the per-person AI limits
  // (AI_REQUESTS_PER_MINUTE, AI_CONCURRENT_PER_PERSON) are lifted for it.
  env: {
    DATA_DIR: path.join(work, "data"),
    SESSION_SECRET: "bench-session-secret-that-is-long-enough-0123456789",
    AI_REQUESTS_PER_MINUTE: "100000",
    AI_CONCURRENT_PER_PERSON: "1000",
  },
}));
const base = server.url;
const json = { "Content-Type": "application/json" };
const { email, token } = await signUp(base, { prefix: "library-bench" });
const auth = { Authorization: `Bearer ${token}` };
const cookie = await signInWithForm(base, email);

// Seed: saved captures through POST /api/library/upload, and every 25th file generated speech (with provenance).
const seedStarted = performance.now();
let next = 0;
async function seedWorker() {
  for (;;) {
    const i = next++;
    if (i >= FILES) return;
    if (i % 25 === 24) {
      const spoken = await fetch(`${base}/api/voice/generate`, {
        method: "POST",
        headers: { ...auth, ...json },
        body: JSON.stringify({ text: `Line number ${i} of the script` }),
      });
      if (spoken.status !== 201) throw new Error(`speech ${i}: ${spoken.status} ${await spoken.text()}`);
      continue;
    }
    const sample = SAMPLES[i % SAMPLES.length];
    const form = new FormData();
    form.append("kind", sample.kind);
    form.append("file", new Blob([sample.bytes(i)]), sample.name(i));
    const saved = await fetch(`${base}/api/library/upload`, { method: "POST", headers: auth, body: form });
    if (saved.status !== 201) throw new Error(`upload ${i}: ${saved.status} ${await saved.text()}`);
  }
}
await Promise.all(Array.from({ length: PARALLEL }, seedWorker));
const seedSeconds = (performance.now() - seedStarted) / 1000;

async function measure(label, url, headers) {
  const times = [];
  let bytes = 0;
  let status = 0;
  for (let run = 0; run < RUNS + 3; run++) {
    const started = performance.now();
    const response = await fetch(`${base}${url}`, { headers: { ...headers, "Accept-Encoding": "identity" } });
    const body = Buffer.from(await response.arrayBuffer());
    const elapsed = performance.now() - started;
    status = response.status;
    bytes = body.length;
    if (run >= 3) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const p90 = times[Math.floor(times.length * 0.9)];
  return { label, url, status, median_ms: Number(median.toFixed(1)), p90_ms: Number(p90.toFixed(1)), bytes };
}

const usage = await (await fetch(`${base}/api/library/usage`, { headers: auth })).json();
const first = await (await fetch(`${base}/api/library`, { headers: auth })).json();
const results = [
  await measure("GET /library (first page, screen)", "/library", { Cookie: cookie }),
  await measure("GET /api/library (first page)", "/api/library", auth),
  await measure("GET /library?kind=photo&q=matrix-9", "/library?kind=photo&q=matrix-9", { Cookie: cookie }),
  await measure("GET /api/library?sort=-size", "/api/library?sort=-size", auth),
  await measure(
    `GET /library?page=${Math.ceil(first.total / first.per_page)} (last page)`,
    `/library?page=${Math.ceil(first.total / first.per_page)}`,
    { Cookie: cookie },
  ),
];
const page = await (await fetch(`${base}/library`, { headers: { Cookie: cookie } })).text();
const items = (page.match(/data-testid="library-item"/g) ?? []).length;

console.log(
  JSON.stringify(
    {
      files: first.total,
      seeded_in_s: Number(seedSeconds.toFixed(1)),
      used_bytes: usage.used_bytes,
      per_page: first.per_page,
      pages: Math.ceil(first.total / first.per_page),
      items_on_first_page: items,
      runs: RUNS,
      results,
    },
    null,
    2,
  ),
);
await server.stop();
