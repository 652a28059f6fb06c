// `npm run faults [-- sqlite|postgres|cluster|outages ...]`: kill -9 under load, restart, then check
// what is left (default: all three set-ups of tests/harness/setups.mjs). `outages` (not in the default) is
// another scenario: PostgreSQL and the store go away under load (probes/faults-outages.mjs).
// Per set-up: a moderate load (FAULTS_PEOPLE simulated people, runLoad) through the set-up's URL, plus
// large video uploads sent slowly (several in flight at any moment), rapid autosaves and AI video
// jobs; instance 0 is killed with SIGKILL FAULTS_KILLS times at spaced moments and restarted (same
// port and data) about 1 s later. Then: every video job finishes (interrupted ones are taken over by a
// runner), every acknowledged write is read back, the instances stop cleanly and the stores are
// checked: SQLite's integrity_check, every media_files row has its bytes (disk file or S3 HeadObject),
// objects without a row (allowed until the next sweep: count and ages), temporary files left, and that
// a restarted instance cleared its own tmp/<instance id>/ folder. With two instances behind nginx,
// requests while instance 0 is down must be served by instance 1 (POSTs in flight on the killed
// instance at the kill are counted apart: they were never acknowledged). Loopback only, bounded in
// count and time. Needs a production build (`npm run build`; BUILD_DIR respected). Prints a table
// and `N passed, M failed`; exits 1 on a failure.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hasBuild, serverBuildPath } from "../tests/harness/launch.mjs";
import { Person, Recorder, runLoad, unknownOutcome, verifyWrites } from "../bench/load-workload.mjs";
import { SETUPS, startSetup } from "../tests/harness/setups.mjs";

const PEOPLE = Number(process.env.FAULTS_PEOPLE ?? 30);
const SECONDS = Number(process.env.FAULTS_SECONDS ?? 70);
const KILLS = Math.max(3, Number(process.env.FAULTS_KILLS ?? 3));
const UPLOADERS = 4;
const UPLOAD_BYTES = 3 * 1024 * 1024;
const UPLOAD_SECONDS = 6;
const AUTOSAVERS = 3;
const JOB_MAKERS = 2;
const JOB_WAIT_MS = 300_000;

const chosen = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const outages = chosen.includes("outages");
const setupNames = chosen.length ? chosen.filter((name) => name !== "outages") : SETUPS;
for (const name of setupNames)
  if (!SETUPS.includes(name)) throw new Error(`unknown set-up "${name}": one of ${SETUPS.join(", ")}`);
if (!hasBuild()) {
  console.error(
    `[faults] no production build at ${serverBuildPath()}: run \`npm run build\` first (BUILD_DIR respected)`,
  );
  process.exit(1);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line) => console.log(`[faults] ${line}`);

/** Requests with the moment they ran, so errors can be told apart: instance 0 down, in flight at a kill, all up. */
class TimedRecorder extends Recorder {
  constructor(timeline) {
    super();
    this.timeline = timeline;
    this.phases = {
      down: { requests: 0, errors: 0, byStatus: {} },
      inFlightAtKill: { requests: 0, errors: 0, byStatus: {} },
      up: { requests: 0, errors: 0, byStatus: {} },
    };
    this.errorSamples = { down: [], inFlightAtKill: [], up: [] };
  }
  record(kind, status, ms) {
    super.record(kind, status, ms);
    const end = performance.now();
    const phase = this.timeline.phaseOf(end - ms, end);
    const bucket = this.phases[phase];
    bucket.requests++;
    const failed = status === "network" || Number(status) >= 500;
    if (failed) {
      bucket.errors++;
      bucket.byStatus[status] = (bucket.byStatus[status] ?? 0) + 1;
      if (this.errorSamples[phase].length < 8) this.errorSamples[phase].push(`${kind} ${status}`);
    }
  }
}

const GONE_MARGIN_MS = 100;

/** When instance 0 was killed, when its process was gone and when it listened again (performance.now() times). */
class Timeline {
  constructor() {
    this.windows = [];
  }
  /**
   * A request counts as in flight at a kill when it started before the killed process was gone (its
   * exit seen, plus the moment the kernel takes to reset connections it had already accepted into the
   * listen backlog) and ended after the signal: such a request may have reached the dying instance, and
   * nginx retries a POST only when it was not sent. "down" is what started after the instance was gone.
   */
  phaseOf(start, end) {
    for (const { killedAt, goneAt, upAt } of this.windows) {
      const gone = (goneAt ?? killedAt) + GONE_MARGIN_MS;
      if (start < gone && end >= killedAt) return "inFlightAtKill";
      if (start >= gone && start < (upAt ?? Infinity)) return "down";
    }
    return "up";
  }
}

/** A multipart body of one file, sent as a stream in pieces with pauses (so a kill lands mid-upload). */
function slowMultipart(name, bytes, seconds) {
  const boundary = `----faults${randomUUID().replace(/-/g, "")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const whole = Buffer.concat([head, bytes, tail]);
  const piece = 64 * 1024;
  const pieces = Math.ceil(whole.length / piece);
  const pause = (seconds * 1000) / pieces;
  let offset = 0;
  const body = new ReadableStream({
    async pull(controller) {
      if (offset >= whole.length) return controller.close();
      if (offset > 0) await sleep(pause);
      controller.enqueue(new Uint8Array(whole.subarray(offset, offset + piece)));
      offset += piece;
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

function videoBytes(size) {
  const bytes = randomBytes(size);
  Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom"), Buffer.alloc(12)]).copy(bytes, 0);
  return bytes;
}

const sha = (buffer) => createHash("sha256").update(buffer).digest("hex");

/** One person uploading videos one after another until the deadline; acknowledged ones are kept with their hash. */
async function uploader(baseUrl, recorder, deadline, uploads) {
  const person = new Person(baseUrl, recorder);
  while (Date.now() < deadline && !((await person.register()) && (await person.login()))) await sleep(500);
  while (Date.now() < deadline) {
    const name = `fault-${randomUUID().slice(0, 8)}.mp4`;
    const bytes = videoBytes(Math.round(UPLOAD_BYTES * (0.7 + Math.random() * 0.6)));
    const { body, contentType } = slowMultipart(name, bytes, UPLOAD_SECONDS * (0.7 + Math.random() * 0.6));
    const started = performance.now();
    let status;
    let data = null;
    try {
      const response = await fetch(baseUrl + "/api/videos/upload", {
        method: "POST",
        headers: { Authorization: `Bearer ${person.token}`, "Content-Type": contentType, Origin: baseUrl },
        body,
        duplex: "half",
        signal: AbortSignal.timeout(120_000),
      });
      status = response.status;
      data = await response.json().catch(() => null);
    } catch {
      status = "network";
    }
    recorder.record("video upload", status, performance.now() - started);
    if (status === 201) uploads.push({ person, filename: data?.filename, size: bytes.length, sha: sha(bytes) });
    else if (status === 401) await person.login();
    else if (status === "network" || unknownOutcome(status)) {
      uploads.unknown = (uploads.unknown ?? 0) + 1;
      await sleep(300); // the instance is down: no hammering
    } else if (recorder.failures.length < 50)
      recorder.failures.push(`video upload: ${status} ${JSON.stringify(data)?.slice(0, 120)}`);
  }
  return person;
}

/** A person autosaving two items as fast as answers come. */
async function autosaver(baseUrl, recorder, deadline) {
  const person = new Person(baseUrl, recorder);
  while (Date.now() < deadline && !((await person.register()) && (await person.login()))) await sleep(500);
  while (Date.now() < deadline && person.content.size < 2) {
    await person.createContent();
    await sleep(50);
  }
  while (Date.now() < deadline) {
    await person.autosave();
    if (Math.random() < 0.1) await person.pin();
    await sleep(30);
  }
  return person;
}

/** A person keeping AI video jobs coming (up to the per-person limit: 429 then waits). */
async function jobMaker(baseUrl, recorder, deadline) {
  const person = new Person(baseUrl, recorder);
  while (Date.now() < deadline && !((await person.register()) && (await person.login()))) await sleep(500);
  while (Date.now() < deadline) {
    const result = await person.call("video create", "/api/aivideo", {
      method: "POST",
      json: { prompt: `fault job ${randomUUID().slice(0, 6)}` },
      expect: [202, 429],
    });
    await sleep(result.status === 202 ? 1500 : 3000);
  }
  return person;
}

// ---- The stores, read from outside --------------------------------------------------------------

async function openDb(setup) {
  if (setup.env.DATABASE_URL) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: setup.env.DATABASE_URL });
    await client.connect();
    return { query: async (text) => (await client.query(text)).rows, close: () => client.end(), engine: "postgres" };
  }
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(path.join(setup.dataDir, "studio.sqlite"), { readonly: true, fileMustExist: true });
  return { query: async (text) => db.prepare(text).all(), close: async () => db.close(), engine: "sqlite", db };
}

async function jobCounts(setup) {
  const db = await openDb(setup);
  try {
    const rows = await db.query("select status, attempts, count(*) as n from video_jobs group by status, attempts");
    const counts = { created: 0, completed: 0, unfinished: 0, failed: 0, resumed: 0, byStatus: {} };
    counts.failures = (
      await db.query(
        "select id, status, attempts, progress, error from video_jobs where status in ('error', 'timeout') limit 5",
      )
    ).map(
      (row) =>
        `${row.id} ${row.status} after ${row.attempts} attempt(s) at progress ${Number(row.progress).toFixed(2)}: ${row.error}`,
    );
    for (const row of rows) {
      const n = Number(row.n);
      counts.created += n;
      counts.byStatus[row.status] = (counts.byStatus[row.status] ?? 0) + n;
      if (row.status === "completed") counts.completed += n;
      else if (["error", "timeout"].includes(row.status)) counts.failed += n;
      else counts.unfinished += n;
      if (Number(row.attempts) > 1 && row.status === "completed") counts.resumed += n;
    }
    return counts;
  } finally {
    await db.close();
  }
}

function s3Settings(setup) {
  const url = new URL(setup.env.STORAGE_URL);
  return {
    bucket: url.hostname,
    prefix: (url.searchParams.get("prefix") ?? "").replace(/^\/+|\/+$/g, "").replace(/.+/, (p) => `${p}/`),
    endpoint: url.searchParams.get("endpoint"),
    region: url.searchParams.get("region") ?? "us-east-1",
  };
}

/** The object store as a small interface: list objects (key -> modified) under objects/ and tmp/, and whether a key exists. */
async function openStore(setup) {
  if (setup.env.STORAGE_URL?.startsWith("s3://")) {
    const { S3Client, ListObjectsV2Command, HeadObjectCommand } = await import("@aws-sdk/client-s3");
    const settings = s3Settings(setup);
    const client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: true,
      credentials: { accessKeyId: setup.env.AWS_ACCESS_KEY_ID, secretAccessKey: setup.env.AWS_SECRET_ACCESS_KEY },
    });
    const list = async (under) => {
      const found = new Map();
      let token;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: settings.bucket,
            Prefix: settings.prefix + under,
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? [])
          found.set(object.Key.slice(settings.prefix.length + under.length), object.LastModified?.getTime() ?? 0);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found;
    };
    return {
      kind: "s3",
      objects: () => list("objects/"),
      temporary: () => list("tmp/"),
      has: async (key) => {
        try {
          await client.send(
            new HeadObjectCommand({ Bucket: settings.bucket, Key: `${settings.prefix}objects/${key}` }),
          );
          return true;
        } catch (error) {
          if (error?.$metadata?.httpStatusCode === 404 || error?.name === "NotFound") return false;
          throw error;
        }
      },
      close: () => client.destroy(),
    };
  }
  const root = path.join(setup.dataDir, "media");
  const walk = (dir, depth) => {
    const found = new Map();
    const visit = (folder, rel, level) => {
      for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
        const full = path.join(folder, entry.name);
        const name = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory() && level < depth) visit(full, name, level + 1);
        else if (entry.isFile()) found.set(name, fs.statSync(full).mtimeMs);
      }
    };
    if (fs.existsSync(dir)) visit(dir, "", 0);
    return found;
  };
  return {
    kind: "disk",
    // objects/<2 chars>/<key>: the key is the file name.
    objects: async () =>
      new Map([...walk(path.join(root, "objects"), 1)].map(([name, mtime]) => [name.split("/").pop(), mtime])),
    temporary: async () => walk(path.join(root, "tmp"), 1),
    has: async (key) => fs.existsSync(path.join(root, "objects", key.slice(0, 2), key)),
    close: () => {},
  };
}

/** The default instance id the app derives (storage.server.ts instanceIdFor): `<host>-<port>`. */
function instanceIdOf(instance) {
  const host =
    os
      .hostname()
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "host";
  return `${host}-${new URL(instance.url).port}`;
}

// ---- One set-up ---------------------------------------------------------------------------------

async function runSetup(name) {
  const result = { name, checks: [], notes: [] };
  const check = (label, ok, detail = "") => {
    result.checks.push({ label: `${name}: ${label}`, ok, detail });
    console.log(`  ${ok ? "✓" : "✘"} ${name}: ${label}${detail ? ` (${detail})` : ""}`);
  };
  const setup = await startSetup(name);
  const timeline = new Timeline();
  const recorder = new TimedRecorder(timeline);
  const store = await openStore(setup);
  try {
    log(
      `${name}: ${setup.url}, ${setup.instances.length} instance(s); ${PEOPLE} people for ${SECONDS} s, ${UPLOADERS} slow uploads, ${AUTOSAVERS} autosavers, ${JOB_MAKERS} job makers, ${KILLS} kills of instance 0`,
    );
    const deadline = Date.now() + SECONDS * 1000;
    const uploads = [];
    // A bug in a simulated person must not crash the run (and leave the set-up running): settled later.
    const settle = (promise) =>
      promise.then(
        (value) => ({ value }),
        (error) => ({ error }),
      );
    const extra = [
      ...Array.from({ length: UPLOADERS }, () => settle(uploader(setup.url, recorder, deadline, uploads))),
      ...Array.from({ length: AUTOSAVERS }, () => settle(autosaver(setup.url, recorder, deadline))),
      ...Array.from({ length: JOB_MAKERS }, () => settle(jobMaker(setup.url, recorder, deadline))),
    ];
    const load = settle(runLoad(setup.url, { people: PEOPLE, seconds: SECONDS, recorder }));

    // Kills at spaced moments inside the load (the last leaves time to run on after the restart).
    const tmpNotCleared = [];
    const start = Date.now();
    for (let k = 0; k < KILLS; k++) {
      const at = start + ((k + 1) * (SECONDS - 10) * 1000) / (KILLS + 0.5);
      await sleep(Math.max(0, at - Date.now()));
      const victim = setup.instances[0];
      const idBefore = instanceIdOf(victim);
      const killedAt = performance.now();
      const window = { killedAt, goneAt: null, upAt: null };
      timeline.windows.push(window);
      victim.child.kill("SIGKILL");
      await victim.exited;
      window.goneAt = performance.now();
      const before = await store.temporary();
      const ownBefore = [...before.keys()].filter((key) => key.startsWith(`${idBefore}/`));
      await sleep(1000);
      const restartedAt = Date.now();
      const restarted = await setup.restart(0);
      window.upAt = performance.now();
      // Right after the start: nothing of this instance's from before the kill may be left in its folder.
      const after = await store.temporary();
      const ownId = instanceIdOf(restarted);
      const leftOver = [...after.entries()].filter(
        ([key, modified]) => key.startsWith(`${ownId}/`) && modified < restartedAt - 500,
      );
      tmpNotCleared.push(...leftOver.map(([key]) => key));
      log(
        `${name}: kill ${k + 1} at ${((Date.now() - start) / 1000).toFixed(1)} s: down ${((window.upAt - killedAt) / 1000).toFixed(1)} s; ` +
          `its temporary files at the kill: ${ownBefore.length}, left after restart: ${leftOver.length}${ownId !== idBefore ? ` (instance id changed ${idBefore} -> ${ownId})` : ""}`,
      );
    }
    const loaded = await load;
    const settled = await Promise.all(extra);
    for (const { error } of [loaded, ...settled]) if (error) throw error;
    const crowd = loaded.value.crowd;
    const extraPeople = settled.map(({ value }) => value);
    log(`${name}: load done: ${recorder.total} requests`);

    // Every video job finishes: interrupted ones are taken over once their heartbeat is stale.
    const waitStarted = Date.now();
    let jobs = await jobCounts(setup);
    while (jobs.unfinished > 0 && Date.now() - waitStarted < JOB_WAIT_MS) {
      await sleep(2000);
      jobs = await jobCounts(setup);
    }
    log(
      `${name}: video jobs after ${((Date.now() - waitStarted) / 1000).toFixed(0)} s: ${JSON.stringify(jobs.byStatus)}`,
    );

    // Acknowledged writes: content, pins, voice clips (verifyWrites) and the uploaded videos, byte for byte.
    const everybody = [...crowd, ...extraPeople];
    const verification = await verifyWrites(everybody);
    let uploadMissing = 0;
    const missingSamples = [...verification.missing];
    for (const upload of uploads) {
      const response = await fetch(`${setup.url}/api/videos/${encodeURIComponent(upload.filename)}`, {
        headers: { Authorization: `Bearer ${upload.person.token}` },
      }).catch(() => null);
      const bytes = response?.ok ? Buffer.from(await response.arrayBuffer()) : null;
      if (!bytes || bytes.length !== upload.size || sha(bytes) !== upload.sha) {
        uploadMissing++;
        missingSamples.push(
          `video ${upload.filename}: ${response?.status ?? "no answer"}${bytes ? `, ${bytes.length} of ${upload.size} bytes or other bytes` : ""}`,
        );
      }
    }
    const writesChecked = verification.checked + uploads.length;
    const writesMissing = verification.missing.length + uploadMissing;

    // Stop cleanly, then read the stores from outside.
    await Promise.all(setup.instances.map((instance) => instance.stop()));
    let integrity = "n/a";
    let rows = [];
    const db = await openDb(setup);
    try {
      if (db.engine === "sqlite")
        integrity = db.db
          .pragma("integrity_check", { simple: false })
          .map((row) => row.integrity_check)
          .join("; ");
      else {
        // PostgreSQL has no integrity_check: the rows must read back whole (every table counted).
        const tables = await db.query("select table_name from information_schema.tables where table_schema = 'public'");
        for (const { table_name } of tables) await db.query(`select count(*) from "${table_name}"`);
        integrity = "ok";
      }
      rows = (await db.query("select id from media_files")).map((row) => row.id);
    } catch (error) {
      integrity = `failed: ${error.message}`;
    } finally {
      await db.close();
    }
    const rowsWithoutBytes = [];
    for (const id of rows) if (!(await store.has(id))) rowsWithoutBytes.push(id);
    const known = new Set(rows);
    const objects = await store.objects();
    const now = Date.now();
    const bytesWithoutRows = [...objects.entries()]
      .filter(([key]) => !known.has(key))
      .map(([key, modified]) => ({ key, ageS: (now - modified) / 1000 }));
    const temporary = [...(await store.temporary()).entries()].map(([key, modified]) => ({
      key,
      ageS: (now - modified) / 1000,
    }));

    const phases = recorder.phases;
    Object.assign(result, {
      kills: timeline.windows.length,
      requests: recorder.total,
      statuses: [...recorder.statuses.entries()]
        .sort()
        .map(([s, n]) => `${s}:${n}`)
        .join(" "),
      phases,
      writesChecked,
      writesMissing,
      uploadsAcknowledged: uploads.length,
      uploadsUnknown: uploads.unknown ?? 0,
      jobs,
      integrity,
      rows: rows.length,
      rowsWithoutBytes: rowsWithoutBytes.length,
      bytesWithoutRows,
      temporary,
      tmpNotCleared,
    });

    log(`${name}: requests ${recorder.total}; statuses ${result.statuses}`);
    for (const [phase, bucket] of Object.entries(phases)) {
      log(
        `${name}:   ${phase.padEnd(15)} requests ${String(bucket.requests).padStart(6)}, 5xx/network ${String(bucket.errors).padStart(5)} ${JSON.stringify(bucket.byStatus)}${recorder.errorSamples[phase].length ? ` e.g. ${recorder.errorSamples[phase].slice(0, 4).join(", ")}` : ""}`,
      );
    }
    log(
      `${name}: acknowledged writes checked ${writesChecked} (videos uploaded ${uploads.length}; upload attempts without an answer, not acknowledged: ${uploads.unknown ?? 0}), missing ${writesMissing}`,
    );
    for (const line of missingSamples.slice(0, 10)) log(`${name}:   missing: ${line}`);
    log(
      `${name}: video jobs created ${jobs.created}, completed ${jobs.completed}, resumed after an interruption ${jobs.resumed}, ended in error/timeout ${jobs.failed}, unfinished ${jobs.unfinished}`,
    );
    for (const line of jobs.failures) log(`${name}:   job not completed: ${line}`);
    log(
      `${name}: integrity ${integrity}; media rows ${rows.length}, rows without bytes ${rowsWithoutBytes.length}${rowsWithoutBytes.length ? ` (${rowsWithoutBytes.slice(0, 5).join(", ")})` : ""}`,
    );
    const ages = bytesWithoutRows.map((o) => o.ageS).sort((a, b) => a - b);
    log(
      `${name}: objects without a row ${bytesWithoutRows.length}${ages.length ? ` (ages ${ages[0].toFixed(0)}-${ages.at(-1).toFixed(0)} s; the app's sweep removes them once older than its 15 min grace period, at the next start or the sweep 16 min after start; no way to run it on demand)` : ""}`,
    );
    log(
      `${name}: temporary files left after the clean stop ${temporary.length}${
        temporary.length
          ? ` (${temporary
              .slice(0, 4)
              .map((t) => `${t.key} ${t.ageS.toFixed(0)} s`)
              .join(", ")})`
          : ""
      }`,
    );
    // Refused connections are the down windows, counted above; anything else is shown.
    const unexpected = recorder.failures.filter((line) => !/fetch failed|ECONNREFUSED|: 502 /.test(line));
    for (const line of unexpected.slice(0, 6)) log(`${name}:   unexpected answer: ${line}`);

    check("acknowledged writes all present", writesMissing === 0, `${writesChecked} checked, ${writesMissing} missing`);
    check(
      "every media row has its bytes",
      rowsWithoutBytes.length === 0,
      `${rows.length} rows, ${rowsWithoutBytes.length} without bytes`,
    );
    check(`database integrity (${db.engine})`, integrity === "ok", integrity);
    check(
      "every video job completed",
      jobs.unfinished === 0 && jobs.failed === 0 && jobs.created > 0,
      `${jobs.completed}/${jobs.created} completed, ${jobs.resumed} resumed`,
    );
    check(
      "instance 0 was killed and came back each time",
      timeline.windows.length >= 3 && timeline.windows.every((w) => w.upAt !== null),
      `${timeline.windows.length} kills`,
    );
    check(
      "a restarted instance cleared its own temporary folder",
      tmpNotCleared.length === 0,
      `${tmpNotCleared.length} left`,
    );
    if (setup.instances.length > 1) {
      check(
        "instance 1 served every request while instance 0 was down",
        phases.down.errors === 0,
        `${phases.down.errors} of ${phases.down.requests} failed; ${phases.inFlightAtKill.errors} more were in flight at a kill`,
      );
    }
  } finally {
    store.close();
    // s3rver's close can wait forever after its own errors: bounded, and the timer keeps the process alive meanwhile.
    let timer;
    await Promise.race([
      setup.stop(),
      new Promise(
        (resolve) =>
          (timer = setTimeout(() => {
            log(`${name}: set-up stop took over 30 s, going on`);
            resolve();
          }, 30_000)),
      ),
    ]);
    clearTimeout(timer);
  }
  return result;
}

const results = [];
const started = Date.now();
for (const name of setupNames) {
  try {
    results.push(await runSetup(name));
  } catch (error) {
    console.log(`  ✘ ${name}: the run failed: ${error?.stack ?? error}`);
    results.push({ name, checks: [{ label: "the run completed", ok: false }] });
  }
}

if (outages) {
  try {
    const { runOutages } = await import("./faults-outages.mjs");
    results.push(await runOutages());
  } catch (error) {
    console.log(`  ✘ outages: the run failed: ${error?.stack ?? error}`);
    results.push({ name: "outages", ownTable: true, checks: [{ label: "outages: the run completed", ok: false }] });
  }
}

const pad = (value, width) => String(value ?? "-").padStart(width);
const ran = [setupNames.length ? `${setupNames.length} set-up(s)` : "", outages ? "the outages" : ""]
  .filter(Boolean)
  .join(" and ");
console.log(`\n[faults] ${ran} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
if (setupNames.length)
  console.log(
    "[faults] set-up     kills requests  err down/in-flight/up  writes chk/miss  uploads  jobs made/done/resumed  integrity  rows  no-bytes  no-row  tmp left",
  );
for (const r of results) {
  if (r.ownTable) continue;
  if (r.requests === undefined) {
    console.log(`[faults] ${r.name.padEnd(9)} (did not complete)`);
    continue;
  }
  console.log(
    `[faults] ${r.name.padEnd(9)} ${pad(r.kills, 5)} ${pad(r.requests, 8)} ${pad(`${r.phases.down.errors}/${r.phases.inFlightAtKill.errors}/${r.phases.up.errors}`, 22)} ${pad(`${r.writesChecked}/${r.writesMissing}`, 16)} ${pad(r.uploadsAcknowledged, 8)} ${pad(`${r.jobs.created}/${r.jobs.completed}/${r.jobs.resumed}`, 23)} ${pad(r.integrity === "ok" ? "ok" : "FAILED", 10)} ${pad(r.rows, 5)} ${pad(r.rowsWithoutBytes, 9)} ${pad(r.bytesWithoutRows.length, 7)} ${pad(r.temporary.length, 9)}`,
  );
}
const checks = results.flatMap((r) => r.checks);
const failed = checks.filter((c) => !c.ok);
for (const c of failed) console.log(`[faults] FAILED ${c.label}${c.detail ? `: ${c.detail}` : ""}`);
console.log(`${checks.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
