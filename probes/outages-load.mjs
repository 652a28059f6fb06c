// The mixed load and the per-instance probes of `npm run faults -- outages` (probes/faults-outages.mjs):
// simulated people reading pages and the API, autosaving, uploading small videos and voice clips and
// downloading them again, each request kept with the moment it ran so the scenario can count it per
// fault, and what the stores hold afterwards (mediaLeft). Every loop ends when `running()` turns
// false. Loopback only.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { Person, Recorder, mp3Frames } from "../bench/load-workload.mjs";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const sha = (buffer) => createHash("sha256").update(buffer).digest("hex");
/** The voice clip Person.uploadVoice sends, to compare downloads with. */
export const VOICE_SHA = sha(mp3Frames(24));

/** Every request with its start and end (performance.now()), its kind and its status ("network" when cut or refused). */
export class TimedLog extends Recorder {
  constructor() {
    super();
    this.entries = [];
  }
  record(kind, status, ms) {
    super.record(kind, status, ms);
    const end = performance.now();
    this.entries.push({ kind, status, start: end - ms, end });
  }
}

/**
 * Answers other than 2xx/3xx, seen through a wrapper around fetch: Retry-After, content type and the
 * start of the body (a clone; the caller reads the original), to tell a 503 with Retry-After from a
 * bare "Unexpected Server Error".
 */
export function watchAnswers() {
  const answers = [];
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const method = init?.method ?? "GET";
    const path = new URL(typeof input === "string" ? input : input.url).pathname;
    let response;
    try {
      response = await original(input, init);
    } catch (error) {
      // No answer at all: what the socket said (ECONNRESET, UND_ERR_SOCKET "other side closed", ...).
      answers.push({
        at: performance.now(),
        method,
        path,
        status: "network",
        error: `${error.cause?.code ?? ""} ${error.cause?.message ?? error.message}`.trim(),
      });
      throw error;
    }
    if (response.status >= 400) {
      const entry = {
        at: performance.now(),
        method,
        path,
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        type: response.headers.get("content-type") ?? "",
        body: "",
      };
      answers.push(entry);
      response
        .clone()
        .text()
        .then(
          (text) => (entry.body = text.slice(0, 160)),
          () => (entry.body = "(cut)"),
        );
    }
    return response;
  };
  return { answers, restore: () => (globalThis.fetch = original) };
}

function videoBytes(size) {
  const bytes = randomBytes(size);
  Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom"), Buffer.alloc(12)]).copy(bytes, 0);
  return bytes;
}

/** One small video upload (64-256 KB); an acknowledged one goes to `uploads` with its hash. */
export async function uploadVideo(person, uploads) {
  const bytes = videoBytes(64 * 1024 + Math.floor(Math.random() * 192 * 1024));
  const form = new FormData();
  form.append("file", new Blob([bytes], { type: "video/mp4" }), `outage-${randomUUID().slice(0, 8)}.mp4`);
  const result = await person.call("video upload", "/api/videos/upload", { method: "POST", body: form, expect: [201] });
  if (result.status === 201 && result.data?.filename)
    uploads.push({ person, filename: result.data.filename, size: bytes.length, sha: sha(bytes) });
  return result.status;
}

/**
 * A download read to its last byte and compared with what was uploaded. No answer is "network"; a
 * body cut short after its status is "cut" (what a store failure after the first byte must do); a
 * whole body with other bytes is counted in `wrong` (never acceptable).
 */
export async function download(recorder, kind, url, token, expected, wrong) {
  const started = performance.now();
  let status;
  try {
    const response = await fetch(url, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(30_000),
    });
    status = response.status;
    const bytes = Buffer.from(await response.arrayBuffer());
    if (status === 200 && (bytes.length !== expected.size || sha(bytes) !== expected.sha))
      wrong.push(`${kind} ${new URL(url).pathname}: ${bytes.length} of ${expected.size} bytes or other bytes`);
  } catch {
    status = status === undefined ? "network" : "cut";
  }
  recorder.record(kind, status, performance.now() - started);
  return status;
}

/** Registers and signs in (API and screen), trying again while the server is not there yet; false at the end of the run. */
async function signUp(person, running) {
  while (running()) {
    if ((await person.register()) && (await person.login()) && (await person.screenLogin())) return true;
    await sleep(500);
  }
  return false;
}

/**
 * The mixed load through `baseUrl`: readers (dashboard page, content list and item, health), writers
 * (autosave, pin, create), uploaders (small videos and voice clips) and downloaders (those files, by
 * their owners' tokens). Resolves the people (for verifyWrites) once `running()` is false.
 */
export async function mixedLoad(
  baseUrl,
  recorder,
  { running, uploads, wrong, readers = 3, writers = 3, uploaders = 2, downloaders = 2 },
) {
  const people = [];
  const worker = async (role) => {
    const person = new Person(baseUrl, recorder);
    people.push(person);
    if (!(await signUp(person, running))) return;
    if (role !== "downloader") await person.createContent();
    while (running()) {
      const r = Math.random();
      if (role === "reader") {
        if (r < 0.35) await person.dashboard();
        else if (r < 0.6) await person.listContent();
        else if (r < 0.85) {
          const id = person.randomItem();
          if (id) await person.call("get content", `/api/content/${id}`);
        } else await person.call("health", "/api/health", { auth: "none", expect: [200, 503] });
      } else if (role === "writer") {
        if (r < 0.75) await person.autosave();
        else if (r < 0.9) await person.pin();
        else if (person.content.size < 6) await person.createContent();
      } else if (role === "uploader") {
        if (r < 0.6) await uploadVideo(person, uploads);
        else await person.uploadVoice();
      } else {
        const voiceOwners = people.filter((p) => p.voices.size && p.token);
        if (r < 0.7 && uploads.length) {
          const upload = uploads[Math.floor(Math.random() * uploads.length)];
          await download(
            recorder,
            "video download",
            `${baseUrl}/api/videos/${encodeURIComponent(upload.filename)}`,
            upload.person.token,
            upload,
            wrong,
          );
        } else if (voiceOwners.length) {
          const owner = voiceOwners[Math.floor(Math.random() * voiceOwners.length)];
          const name = [...owner.voices][Math.floor(Math.random() * owner.voices.size)];
          await download(
            recorder,
            "voice download",
            `${baseUrl}/static/voices/${encodeURIComponent(name)}`,
            owner.token,
            { size: mp3Frames(24).length, sha: VOICE_SHA },
            wrong,
          );
        }
      }
      await sleep((role === "uploader" ? 150 : 60) * (0.5 + Math.random()));
    }
  };
  const roles = [
    ...Array(readers).fill("reader"),
    ...Array(writers).fill("writer"),
    ...Array(uploaders).fill("uploader"),
    ...Array(downloaders).fill("downloader"),
  ];
  // A bug in one simulated person must not end the run early (and leave the set-up running).
  const settled = await Promise.allSettled(roles.map((role) => worker(role)));
  for (const outcome of settled)
    if (outcome.status === "rejected")
      console.log(`[faults] outages: a load worker failed: ${outcome.reason?.stack ?? outcome.reason}`);
  return people;
}

/**
 * A prober for one instance, hit directly (not through nginx): a person with a content item and an
 * uploaded video on it. `round()` asks, at once, for the dashboard page, the content list, the
 * video's bytes and /api/health, and resolves { start, end, ok, health } where ok means all four
 * answered 200 (the video byte for byte) and health is what /api/health said ("503 degraded
 * database=unavailable storage=ok +Retry-After").
 */
export async function prober(instanceUrl, recorder, running, wrong, uploads) {
  const person = new Person(instanceUrl, recorder);
  if (!(await signUp(person, running))) throw new Error(`prober on ${instanceUrl} could not sign up`);
  await person.createContent();
  let video = null;
  for (let tries = 0; !video && tries < 20 && running(); tries++) {
    await uploadVideo(person, uploads);
    video = uploads.find((upload) => upload.person === person) ?? null;
    if (!video) await sleep(500);
  }
  if (!video) throw new Error(`prober on ${instanceUrl} could not upload its video`);
  return {
    person,
    async round() {
      const start = performance.now();
      const health = (async () => {
        const started = performance.now();
        try {
          const response = await fetch(`${instanceUrl}/api/health`, { signal: AbortSignal.timeout(10_000) });
          const body = await response.json().catch(() => null);
          recorder.record("health (probe)", response.status, performance.now() - started);
          const words = body ? `${body.status} database=${body.database} storage=${body.storage}` : "(not JSON)";
          return {
            status: response.status,
            words: `${response.status} ${words}${response.headers.get("retry-after") ? " +Retry-After" : ""}`,
          };
        } catch {
          recorder.record("health (probe)", "network", performance.now() - started);
          return { status: "network", words: "no answer" };
        }
      })();
      const [page, list, bytes, said] = await Promise.all([
        person.call("dashboard (probe)", "/dashboard", { auth: "cookie", expect: [200, 503] }),
        person.call("list content (probe)", "/api/content", { expect: [200, 503] }),
        download(
          recorder,
          "video download (probe)",
          `${instanceUrl}/api/videos/${encodeURIComponent(video.filename)}`,
          person.token,
          video,
          wrong,
        ),
        health,
      ]);
      const ok = page.status === 200 && list.status === 200 && bytes === 200 && said.status === 200;
      return { start, end: performance.now(), ok, health: said.words };
    },
  };
}

/**
 * The media rows (by kind) and the store's objects/ and tmp/ keys, read from outside after the load:
 * an upload refused during an outage must leave no row, and every row must have its object.
 */
export async function mediaLeft(setup) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: setup.env.DATABASE_URL });
  client.on("error", () => {});
  await client.connect();
  let rows;
  try {
    rows = (await client.query("select id, kind from media_files")).rows;
  } finally {
    await client.end();
  }
  const { S3Client, ListObjectsV2Command } = await import("@aws-sdk/client-s3");
  const url = new URL(setup.env.STORAGE_URL);
  const s3 = new S3Client({
    endpoint: url.searchParams.get("endpoint"),
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: setup.env.AWS_ACCESS_KEY_ID, secretAccessKey: setup.env.AWS_SECRET_ACCESS_KEY },
  });
  const list = async (prefix) => {
    const keys = [];
    let token;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: url.hostname, Prefix: prefix, ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((object) => object.Key.slice(prefix.length)));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  };
  try {
    const objects = new Set(await list("objects/"));
    const ids = new Set(rows.map((row) => row.id));
    return {
      videos: rows.filter((row) => row.kind === "video").length,
      voices: rows.filter((row) => row.kind === "voice").length,
      withoutBytes: rows.filter((row) => !objects.has(row.id)).map((row) => row.id),
      withoutRow: [...objects].filter((key) => !ids.has(key)).length,
      temporary: (await list("tmp/")).length,
    };
  } finally {
    s3.destroy();
  }
}
