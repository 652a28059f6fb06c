// The workload of `npm run load` and `npm run faults`: simulated people against a running server,
// each acknowledged write recorded so it can be checked afterwards. Loopback only; every loop is
// bounded by a deadline and stops by itself.
import { randomUUID } from "node:crypto";
import { PASSWORD, request } from "../tests/support/client.mjs";

/** One MPEG-1 Layer III frame header (128 kbps, 44.1 kHz): frames are 417 bytes (as tests/support/media.ts). */
export function mp3Frames(frames = 3) {
  const buffer = Buffer.alloc(417 * frames);
  for (let i = 0; i < frames; i++) Buffer.from([0xff, 0xfb, 0x90, 0x00]).copy(buffer, i * 417);
  return buffer;
}

export { PASSWORD };

/** Latency and status counts per kind of request. */
export class Recorder {
  constructor() {
    this.kinds = new Map();
    this.statuses = new Map();
    this.failures = [];
  }
  record(kind, status, ms) {
    if (!this.kinds.has(kind)) this.kinds.set(kind, []);
    this.kinds.get(kind).push(ms);
    const key = String(status);
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
  }
  get total() {
    let n = 0;
    for (const list of this.kinds.values()) n += list.length;
    return n;
  }
  /** Rows of kind, count, p50, p95, p99 (ms). */
  table() {
    const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
    return [...this.kinds.entries()]
      .map(([kind, list]) => {
        const sorted = [...list].sort((a, b) => a - b);
        return { kind, count: list.length, p50: pct(sorted, 50), p95: pct(sorted, 95), p99: pct(sorted, 99) };
      })
      .sort((a, b) => a.kind.localeCompare(b.kind));
  }
  serverErrors() {
    let n = 0;
    for (const [status, count] of this.statuses) if (Number(status) >= 500 || status === "network") n += count;
    return n;
  }
}

/** A request whose outcome is unknown (no answer, or the proxy's 502/504 after the instance died): maybe written, not acknowledged. */
export function unknownOutcome(status) {
  return status === 0 || status === 502 || status === 503 || status === 504;
}

/** A person's HTTP client: bearer token for the API, session cookie for screens. */
export class Person {
  constructor(baseUrl, recorder) {
    this.baseUrl = baseUrl;
    this.recorder = recorder;
    this.email = `load-${randomUUID().slice(0, 12)}@example.com`;
    this.token = null;
    this.refreshToken = null;
    this.cookie = null;
    /**
     * Acknowledged writes: content id -> { title, body, pinned, unsure, pinUnsure }; voice names. An
     * autosave or pin that got no answer (the server died) may or may not have been written: its body
     * goes to `unsure` (pin: `pinUnsure`), which verify accepts as well as the acknowledged state.
     */
    this.content = new Map();
    this.voices = new Set();
    this.videoJobs = new Set();
  }

  async call(kind, path, { method = "GET", json, body, headers = {}, auth = "token", expect = [200] } = {}) {
    const started = performance.now();
    let answer;
    try {
      answer = await request(this.baseUrl, path, {
        method,
        json,
        body,
        token: auth === "token" ? this.token : null,
        cookie: auth === "cookie" ? this.cookie : null,
        headers: { ...(method !== "GET" ? { Origin: this.baseUrl } : {}), ...headers },
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      // No answer, or one cut off (the server died mid-body; the message starts with its status): not an acknowledgment.
      this.recorder.record(kind, "network", performance.now() - started);
      this.recorder.failures.push(`${kind} ${path}: ${error.message}`);
      return { status: 0, data: null, headers: new Headers() };
    }
    this.recorder.record(kind, answer.status, performance.now() - started);
    const data = answer.body;
    if (!expect.includes(answer.status) && this.recorder.failures.length < 50) {
      this.recorder.failures.push(
        `${kind} ${method} ${path}: ${answer.status} ${typeof data === "string" ? data.slice(0, 120) : JSON.stringify(data)?.slice(0, 160)}`,
      );
    }
    return { status: answer.status, data, headers: answer.headers };
  }

  /**
   * A sign-in or registration, again after Retry-After (and a little more, so a crowd spreads out) while
   * the server answers 503: its password hash queue is bounded (PASSWORD_HASH_QUEUE_MAX), and a crowd
   * arriving at once is told to come back rather than queued without end. At most 20 tries.
   */
  async hashing(kind, path, options) {
    for (let tries = 1; ; tries++) {
      const result = await this.call(kind, path, { ...options, expect: [...(options.expect ?? [200]), 503] });
      if (result.status !== 503 || tries === 20) return result;
      const seconds = Number(result.headers.get("retry-after")) || 1;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000 * (1 + Math.random())));
    }
  }

  async register() {
    const result = await this.hashing("register", "/api/auth/register", {
      method: "POST",
      json: { email: this.email, password: PASSWORD },
      expect: [201],
    });
    return result.status === 201;
  }

  async login() {
    const result = await this.hashing("login", "/api/auth/login", {
      method: "POST",
      json: { email: this.email, password: PASSWORD },
      auth: "none",
    });
    if (result.status !== 200) return false;
    this.token = result.data.access_token;
    this.refreshToken = result.data.refresh_token;
    return true;
  }

  /** The screens' login: a form post that answers with the session cookie. */
  async screenLogin() {
    const result = await this.hashing("login form", "/login", {
      method: "POST",
      body: new URLSearchParams({ email: this.email, password: PASSWORD }),
      auth: "none",
      expect: [302, 303],
    });
    const cookie = result.headers.getSetCookie?.().find((c) => /^(__Host-session|__session)=/.test(c));
    if (cookie) this.cookie = cookie.split(";")[0];
    return Boolean(this.cookie);
  }

  async refresh() {
    const result = await this.call("refresh", "/api/auth/refresh", {
      method: "POST",
      json: { refresh_token: this.refreshToken },
      auth: "none",
    });
    if (result.status === 200) {
      this.token = result.data.access_token;
      this.refreshToken = result.data.refresh_token;
    }
    return result.status === 200;
  }

  async dashboard() {
    await this.call("dashboard", "/dashboard", { auth: "cookie" });
  }

  async createContent() {
    const title = `Load ${randomUUID().slice(0, 8)}`;
    const body = `Written under load at ${new Date().toISOString()}`;
    const result = await this.call("create", "/api/content", {
      method: "POST",
      json: { title, body },
      expect: [200, 201],
    });
    if (result.status === 200 || result.status === 201) {
      const id = result.data?.id ?? result.data?.item?.id;
      if (id) this.content.set(id, { title, body, pinned: false, updated_at: result.data.updated_at });
    }
  }

  randomItem() {
    const ids = [...this.content.keys()];
    return ids.length ? ids[Math.floor(Math.random() * ids.length)] : null;
  }

  async autosave() {
    const id = this.randomItem();
    if (!id) return this.createContent();
    const item = this.content.get(id);
    const body = `${item.body.slice(0, 200)} +${randomUUID().slice(0, 4)}`;
    const result = await this.call("autosave", `/api/content/${id}/autosave`, {
      method: "POST",
      json: { title: item.title, body, updated_at: item.updated_at },
      expect: item.unsure?.length ? [200, 409] : [200],
    });
    if (result.status === 200) this.content.set(id, { ...item, body, updated_at: result.data.updated_at, unsure: [] });
    else if (unknownOutcome(result.status)) {
      // Not acknowledged, but it may have been written (a crash after the commit): either body is right.
      this.content.set(id, { ...item, unsure: [...(item.unsure ?? []), body] });
    } else if (result.status === 409 && item.unsure?.includes(result.data?.current?.body)) {
      // It had been written: go on from what is stored.
      this.content.set(id, {
        ...item,
        body: result.data.current.body,
        updated_at: result.data.current.updated_at,
        unsure: [],
      });
    }
  }

  async pin() {
    const id = this.randomItem();
    if (!id) return this.createContent();
    const item = this.content.get(id);
    const result = await this.call("pin", `/api/content/${id}/pin`, { method: "POST", json: { pinned: !item.pinned } });
    if (result.status === 200)
      this.content.set(id, {
        ...item,
        pinned: !item.pinned,
        pinUnsure: false,
        updated_at: result.data?.updated_at ?? item.updated_at,
      });
    else if (unknownOutcome(result.status)) this.content.set(id, { ...item, pinUnsure: true });
  }

  async listContent() {
    await this.call("list content", "/api/content");
  }

  async uploadVoice() {
    const form = new FormData();
    const name = `clip-${randomUUID().slice(0, 8)}.mp3`;
    form.append("file", new Blob([mp3Frames(24)], { type: "audio/mpeg" }), name);
    const result = await this.call("voice upload", "/api/voice/upload", {
      method: "POST",
      body: form,
      expect: [200, 201],
    });
    if (result.status === 200 || result.status === 201) this.voices.add(result.data?.filename ?? name);
  }

  async videoJob() {
    const result = await this.call("video create", "/api/aivideo", {
      method: "POST",
      json: { prompt: "a paper boat on a pond" },
      expect: [200, 201, 202, 429],
    });
    const id = result.data?.id ?? result.data?.data?.id;
    if (id) this.videoJobs.add(id);
  }

  async pollVideo() {
    const ids = [...this.videoJobs];
    if (!ids.length) return this.videoJob();
    const id = ids[Math.floor(Math.random() * ids.length)];
    const result = await this.call("video poll", `/api/aivideo/status/${id}`);
    if (["completed", "error", "timeout"].includes(result.data?.status)) this.videoJobs.delete(id);
  }

  /** Every acknowledged write, read back: [missing descriptions]. */
  async verify() {
    const missing = [];
    for (const [id, item] of this.content) {
      const result = await this.call("verify", `/api/content/${id}`);
      if (result.status !== 200) missing.push(`content ${id}: ${result.status}`);
      else if (result.data.body !== item.body && !item.unsure?.includes(result.data.body))
        missing.push(`content ${id}: stale body`);
      else if (Boolean(result.data.pinned) !== item.pinned && !item.pinUnsure) missing.push(`content ${id}: stale pin`);
    }
    if (this.voices.size) {
      // The list pages (at most 500 a page): follow its Link rel="next" to the end.
      const names = new Set();
      for (let path = "/api/voice/list-files?limit=500"; path;) {
        const result = await this.call("verify", path);
        for (const f of result.data?.files ?? []) names.add(typeof f === "string" ? f : f.name);
        path = /<([^>]+)>;\s*rel="next"/.exec(result.headers.get("link") ?? "")?.[1] ?? null;
      }
      for (const name of this.voices) if (!names.has(name)) missing.push(`voice ${name}`);
    }
    return missing;
  }
}

const ACTIONS = [
  ["dashboard", 20],
  ["createContent", 12],
  ["autosave", 30],
  ["pin", 8],
  ["listContent", 10],
  ["uploadVoice", 6],
  ["pollVideo", 12],
  ["refresh", 2],
];
const WEIGHT = ACTIONS.reduce((sum, [, w]) => sum + w, 0);
function pickAction() {
  let r = Math.random() * WEIGHT;
  for (const [name, w] of ACTIONS) if ((r -= w) < 0) return name;
  return "dashboard";
}

/**
 * `people` simulated people for `seconds`: each registers, logs in (API and screen), then mixes
 * dashboard, create, autosave, pin, list, small voice uploads, AI video jobs and polling, with a short
 * think time. Returns the recorder and the people (for verification). `recorder`: a Recorder (or
 * subclass) of the caller's, e.g. to see when each request ran.
 */
export async function runLoad(
  baseUrl,
  { people = 100, seconds = 60, thinkMs = 200, onPerson, recorder = new Recorder() } = {},
) {
  const deadline = Date.now() + seconds * 1000;
  const crowd = Array.from({ length: people }, () => new Person(baseUrl, recorder));
  await Promise.all(
    crowd.map(async (person, index) => {
      // Staggered arrival over the first few seconds.
      await new Promise((resolve) => setTimeout(resolve, (index % 50) * 40));
      if (!(await person.register()) || !(await person.login())) return;
      await person.screenLogin();
      onPerson?.(person);
      while (Date.now() < deadline) {
        await person[pickAction()]();
        await new Promise((resolve) => setTimeout(resolve, thinkMs * (0.5 + Math.random())));
      }
    }),
  );
  return { recorder, crowd };
}

/** Reads back every person's acknowledged writes. */
export async function verifyWrites(crowd) {
  const missing = [];
  let checked = 0;
  for (const person of crowd) {
    if (!person.token) continue;
    // A fresh token: the old one may have expired during a long run.
    await person.login();
    checked += person.content.size + person.voices.size;
    missing.push(...(await person.verify()));
  }
  return { checked, missing };
}

export function printReport(title, recorder, verification) {
  console.log(`\n[load] ${title}`);
  console.log(`[load] requests: ${recorder.total}`);
  console.log(
    `[load] statuses: ${[...recorder.statuses.entries()]
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ")}`,
  );
  console.log("[load] kind               count    p50 ms   p95 ms   p99 ms");
  for (const row of recorder.table()) {
    console.log(
      `[load] ${row.kind.padEnd(18)} ${String(row.count).padStart(6)} ${row.p50.toFixed(1).padStart(9)} ${row.p95.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(8)}`,
    );
  }
  if (verification)
    console.log(`[load] acknowledged writes checked: ${verification.checked}, missing: ${verification.missing.length}`);
  for (const line of recorder.failures.slice(0, 10)) console.log(`[load]   unexpected: ${line}`);
  for (const line of verification?.missing.slice(0, 10) ?? []) console.log(`[load]   missing: ${line}`);
}
