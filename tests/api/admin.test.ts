import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../support/admin";
import { mp4Bytes } from "../support/media";
import { startTestServer, type RunningServer } from "../support/server";
import { api, newUser, PASSWORD, signInWithForm, uniqueEmail } from "../support/api";

/**
 * `npm run admin -- <command>` (decision 0046), spawned as an operator runs it, against the data of a server
 * that keeps running (SQLite in its DATA_DIR, or its PostgreSQL database under `npm run test:pg`): each
 * command's effect is seen by the server's very next request.
 */
const MiB = 1024 * 1024;
const DISABLED = "This account is disabled. Ask the person who runs this studio to enable it.";
let server: RunningServer;

beforeAll(async () => {
  // A daily AI cap for everyone without their own (AI_DAILY_LIMIT).
  server = await startTestServer({ AI_DAILY_LIMIT: "3" });
});
afterAll(async () => {
  await server?.stop();
});

const admin = (args: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
  runAdmin(args, { dataDir: server.dataDir, ...options, env: { AI_DAILY_LIMIT: "3", ...options.env } });

/** The API of this file's own server (AI_DAILY_LIMIT set), as `api` calls the suite's. */
const call = (pathname: string, init: { token?: string; json?: unknown; method?: string; body?: BodyInit } = {}) =>
  api(pathname, { token: init.token, json: init.json, method: init.method, raw: init.body, server: server.url });

async function person(prefix: string) {
  const { email, token, refreshToken } = await newUser(prefix, server.url);
  return { email, token, refreshToken };
}

const videoForm = (bytes: Buffer, name: string) => {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "video/mp4" }), name);
  return form;
};

describe("npm run admin: usage and bad arguments", { timeout: 60_000 }, () => {
  it("help, or no command, prints the usage", async () => {
    for (const args of [[], ["help"]]) {
      const run = await admin(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Usage: npm run admin -- <command>");
      for (const command of [
        "status [--json]",
        "users",
        "disable <email>",
        "enable <email>",
        "quota <email>",
        "ai-limit <email>",
        "invite [--days N]",
        "sessions revoke <email>",
        "tokens revoke <email>",
        "shares <email>",
        "shares revoke <email>",
        "delete <email> [--yes]",
      ]) {
        expect(run.stdout).toContain(command);
      }
    }
  });

  it.each([
    [["frobnicate"], /unknown command "frobnicate"/],
    [["disable", "nobody@example.com"], /no account with the email nobody@example.com/],
    [["disable"], /expected: disable <email>/],
    [
      ["quota", "nobody@example.com", "lots"],
      /the quota must be a number of MiB \(e\.g\. 2048\) or "default", got "lots"/,
    ],
    [["quota", "nobody@example.com", "-5"], /the quota must be a number of MiB/],
    [["ai-limit", "nobody@example.com", "1.5"], /the daily cap must be a whole number/],
    [["invite", "--days", "0"], /--days must be a whole number of days from 1 to 365, got "0"/],
    [["invite", "--days"], /--days must be a whole number/],
    [["invite", "--weeks", "2"], /unknown argument "--weeks"/],
    [["sessions", "list", "a@b.c"], /expected: sessions revoke <email>/],
    [["tokens", "list", "a@b.c"], /expected: tokens revoke <email>/],
    [["tokens", "revoke"], /expected: tokens revoke <email>/],
    [["tokens", "revoke", "nobody@example.com"], /no account with the email nobody@example.com/],
    [["delete", "nobody@example.com", "--force"], /unknown option "--force"/],
    [["status", "--yaml"], /unknown argument "--yaml" \(expected: status \[--json\]\)/],
  ])("%j: a clear message on stderr, exit 2", async (args, message) => {
    const run = await admin(args as string[]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe("");
  });

  it("a bad setting stops it with the server's own message, exit 2", async () => {
    const run = await admin(["users"], { env: { REGISTRATION: "sometimes" } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('REGISTRATION must be one of open, invite, closed, got "sometimes"');
  });
});

// Each command is a process that loads the server build (a few seconds on a busy machine).
describe("npm run admin while the server runs", { timeout: 120_000 }, () => {
  it("status lists dependencies, this instance, the queue, sessions, storage and live links", async () => {
    const someone = await person("status");
    const item = await call("/api/content", { token: someone.token, json: { title: "Status", body: "text" } });
    const share = () => call("/api/shares", { token: someone.token, json: { kind: "content", id: item.body.id } });
    expect((await share()).status).toBe(201);

    const json = await admin(["status", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      database: { state: "ok", engine: expect.stringMatching(/^(sqlite|postgres)$/) },
      storage: { state: "ok", kind: "file" },
      ai: { test_mode: true, providers: { chat: expect.any(String), video: expect.any(String) } },
      video_jobs: {
        by_status: { starting: expect.any(Number), queued: expect.any(Number), processing: expect.any(Number) },
        queue_depth: expect.any(Number),
        oldest_waiting_seconds: expect.any(Number),
      },
    });
    // The server's heartbeat (at its start, then every 30 s) names it.
    const instance = report.instances.find((row: { pid: number }) => row.pid === server.child.pid);
    expect(instance).toMatchObject({
      id: expect.stringMatching(/^[\w-]+$/),
      host: os.hostname(),
      version: report.version,
      metrics_port: null,
    });
    expect(Date.now() - Date.parse(instance.seen_at)).toBeLessThan(120_000);
    expect(report.sessions.active).toBeGreaterThanOrEqual(1);
    expect(report.sessions.people).toBeGreaterThanOrEqual(1);
    expect(report.storage_used.text_bytes).toBeGreaterThan(0);
    expect(report.storage_used.bytes).toBe(report.storage_used.media_bytes + report.storage_used.text_bytes);
    expect(report.share_links.live).toBeGreaterThanOrEqual(1);

    // One more live link, counted at once.
    expect((await share()).status).toBe(201);
    const text = await admin(["status"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^database {6}ok \((sqlite|postgres)\)$/m);
    expect(text.stdout).toMatch(/^storage {7}ok \(file\)$/m);
    expect(text.stdout).toMatch(/^Instances seen in the last 2 minutes: \d+$/m);
    expect(text.stdout).toContain(instance.id);
    expect(text.stdout).toMatch(
      /^Video jobs {4}\d+ unfinished: starting \d+, queued \d+, processing \d+, finishing \d+$/m,
    );
    expect(text.stdout).toMatch(/^Sessions {6}\d+ active sessions? of \d+ (person|people)$/m);
    expect(text.stdout).toMatch(/^Storage used {2}\S+ \w+ for \d+ (person|people) \(files .+, texts .+\)$/m);
    expect(text.stdout).toContain(`Share links   ${report.share_links.live + 1} live`);
  });

  it("status says which dependency is out of reach, and exits 1", async () => {
    const run = await admin(["status"], { env: { DATABASE_URL: "postgres://studio@127.0.0.1:1/nowhere" } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^database {6}unavailable \(postgres\): .+$/m);
    expect(run.stdout).toMatch(/^storage {7}ok \(file\)$/m);
    expect(run.stdout).toContain("The database cannot be reached: nothing more to report.");
    const json = await admin(["status", "--json"], { env: { DATABASE_URL: "postgres://studio@127.0.0.1:1/nowhere" } });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ database: { state: "unavailable" }, instances: null });
  });

  it("users: a table of everyone with created, last seen, disabled, storage and AI requests today", async () => {
    const busy = await person("table-busy");
    const idle = await person("table-idle");
    const newcomer = uniqueEmail("table-new");
    expect((await call("/api/auth/register", { json: { email: newcomer, password: PASSWORD } })).status).toBe(201);
    expect(
      (await call("/api/assistant/message", { token: busy.token, json: { message: "How do I use the Drawing Pad?" } }))
        .status,
    ).toBe(200);
    expect(
      (await call("/api/videos/upload", { token: busy.token, body: videoForm(mp4Bytes(100_000), "clip.mp4") })).status,
    ).toBe(201);
    const run = await admin(["users"]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0].split(/\s{2,}/)).toEqual([
      "email",
      "created (UTC)",
      "last seen (UTC)",
      "disabled",
      "storage used / quota",
      "AI today / cap",
    ]);
    const row = (email: string) => lines.find((line) => line.startsWith(email))!.split(/\s{2,}/);
    const today = new Date().toISOString().slice(0, 10);
    expect(row(busy.email)).toEqual([
      busy.email,
      expect.stringMatching(new RegExp(`^${today} \\d\\d:\\d\\d$`)),
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      "no",
      expect.stringMatching(/^97\.\d KiB \/ 1 GiB$/),
      "1 / 3",
    ]);
    expect(row(idle.email).slice(2)).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      "no",
      "0 B / 1 GiB",
      "0 / 3",
    ]);
    // Registered, never signed in.
    expect(row(newcomer).slice(2)).toEqual(["never", "no", "0 B / 1 GiB", "0 / 3"]);
    expect(lines.at(-1)).toMatch(/^\d+ people$/);
  });

  it("disable: the person's next API call is 401 and login is 403 with a detail (the login screen says it); enable lets them in again", async () => {
    const someone = await person("disabled");
    expect((await call("/api/auth/me", { token: someone.token })).status).toBe(200);
    const run = await admin(["disable", someone.email.toUpperCase()]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      `Disabled ${someone.email}: login is refused, 1 session ended, 0 API tokens revoked and 0 video jobs cancelled.\n`,
    );

    expect((await call("/api/auth/me", { token: someone.token })).status).toBe(401);
    expect((await call("/api/auth/refresh", { json: { refresh_token: someone.refreshToken } })).status).toBe(401);
    expect(await call("/api/auth/login", { json: { email: someone.email, password: PASSWORD } })).toMatchObject({
      status: 403,
      body: { detail: DISABLED },
    });
    // A wrong password is still just wrong: being disabled is told only to whoever knows the password.
    expect((await call("/api/auth/login", { json: { email: someone.email, password: "wrong-password" } })).status).toBe(
      401,
    );
    const screen = await fetch(`${server.url}/login`, {
      method: "POST",
      body: new URLSearchParams({ email: someone.email, password: PASSWORD }),
      redirect: "manual",
    });
    expect(screen.status).toBe(403);
    expect(await screen.text()).toContain(DISABLED);
    expect((await admin(["users"])).stdout.split("\n").find((line) => line.startsWith(someone.email))).toMatch(
      / {2}yes \(\d{4}-\d\d-\d\d\) {2}/,
    );

    expect((await admin(["enable", someone.email])).stdout).toBe(
      `Enabled ${someone.email}: they may log in again (API tokens revoked by disable stay revoked).\n`,
    );
    const again = await call("/api/auth/login", { json: { email: someone.email, password: PASSWORD } });
    expect(again.status).toBe(200);
    expect((await call("/api/auth/me", { token: again.body.access_token })).status).toBe(200);
  });

  it("quota: the person's own quota shows in /api/library/usage and holds for their uploads; default restores USER_STORAGE_QUOTA_MB", async () => {
    const someone = await person("quota");
    const other = await person("quota-other");
    const run = await admin(["quota", someone.email, "0.5"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${someone.email} may now store 512 KiB.\n`);
    expect((await call("/api/library/usage", { token: someone.token })).body.quota_bytes).toBe(MiB / 2);
    expect((await call("/api/library/usage", { token: other.token })).body.quota_bytes).toBe(1024 * MiB);
    // The dashboard's storage meter too (and its kept page moves with the quota).
    const cookie = await signInWithForm(someone.email, server.url);
    const meterMax = async () =>
      /<meter id="storage-meter"[^>]* max="(\d+)"/.exec(
        await (await fetch(`${server.url}/dashboard`, { headers: { Cookie: cookie } })).text(),
      )?.[1];
    expect(await meterMax()).toBe(String(MiB / 2));
    const refused = await call("/api/videos/upload", {
      token: someone.token,
      body: videoForm(mp4Bytes(600_000), "big.mp4"),
    });
    expect(refused).toMatchObject({
      status: 413,
      body: {
        detail:
          "Not enough storage left: this would pass your 512 KiB quota. Delete files in your library to make room.",
      },
    });
    expect(
      (await call("/api/videos/upload", { token: someone.token, body: videoForm(mp4Bytes(300_000), "fits.mp4") }))
        .status,
    ).toBe(201);

    await admin(["quota", someone.email, "default"]);
    expect((await call("/api/library/usage", { token: someone.token })).body.quota_bytes).toBe(1024 * MiB);
    expect(await meterMax()).toBe(String(1024 * MiB));
    expect(
      (await call("/api/videos/upload", { token: someone.token, body: videoForm(mp4Bytes(600_000), "big.mp4") }))
        .status,
    ).toBe(201);
  });

  it("ai-limit: past the daily cap (AI_DAILY_LIMIT, or the person's own) AI requests are 429 with a detail and Retry-After", async () => {
    const someone = await person("ai-cap");
    const ask = () =>
      call("/api/assistant/message", { token: someone.token, json: { message: "How do I use the Drawing Pad?" } });
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(
      /^Too many AI requests today: at most 3 a day\. Try again in \d+ hours? \(at midnight UTC\)\.$/,
    );
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);

    // Their own cap wins over AI_DAILY_LIMIT: 5 lets two more through.
    const run = await admin(["ai-limit", someone.email, "5"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${someone.email}: at most 5 AI requests a day (UTC).\n`);
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(429);
    expect((await admin(["ai-limit", someone.email, "0"])).stdout).toBe(
      `${someone.email}: no daily cap on AI requests.\n`,
    );
    expect((await ask()).status).toBe(200);
    expect((await admin(["ai-limit", someone.email, "default"])).stdout).toBe(
      `${someone.email}: at most 3 AI requests a day (UTC) (AI_DAILY_LIMIT, the default).\n`,
    );
    expect((await ask()).status).toBe(429);
  });

  it("invite: prints a link on the origin PUBLIC_URL names, or says what it used", async () => {
    const named = await admin(["invite", "--days", "2"], { env: { PUBLIC_URL: "https://studio.example.org/" } });
    expect(named.code).toBe(0);
    expect(named.stdout).toMatch(/^https:\/\/studio\.example\.org\/register\?invite=[A-Za-z0-9_-]{22}\n$/);
    const unnamed = await admin(["invite"], { env: { PORT: "8080" } });
    expect(unnamed.stdout).toMatch(/^http:\/\/localhost:8080\/register\?invite=/);
    expect(unnamed.stderr).toContain("PUBLIC_URL is not set: the link names http://localhost:8080");
  });

  it("sessions revoke: every session of the person ends at once", async () => {
    const someone = await person("revoke");
    const second = await call("/api/auth/login", { json: { email: someone.email, password: PASSWORD } });
    const run = await admin(["sessions", "revoke", someone.email]);
    expect(run.stdout).toBe(`Ended 2 sessions of ${someone.email}: they log in again.\n`);
    expect((await call("/api/auth/me", { token: someone.token })).status).toBe(401);
    expect((await call("/api/auth/me", { token: second.body.access_token })).status).toBe(401);
    expect((await call("/api/auth/refresh", { json: { refresh_token: someone.refreshToken } })).status).toBe(401);
    // Not disabled: they log in again.
    expect((await call("/api/auth/login", { json: { email: someone.email, password: PASSWORD } })).status).toBe(200);
  });

  it("tokens revoke: every personal API token of the person is 401 at once, their sessions and other people's tokens go on", async () => {
    const someone = await person("tokens-revoke");
    const other = await person("tokens-keep");
    const made = [];
    for (const name of ["backup", "ci"])
      made.push((await call("/api/account/tokens", { token: someone.token, json: { name } })).body.token as string);
    const kept = (await call("/api/account/tokens", { token: other.token, json: { name: "theirs" } })).body
      .token as string;
    for (const token of made) expect((await call("/api/auth/me", { token })).status).toBe(200);

    const run = await admin(["tokens", "revoke", someone.email]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      `Revoked 2 API tokens of ${someone.email}: their scripts get 401 until they make new ones.\n`,
    );
    for (const token of made) expect((await call("/api/auth/me", { token })).status).toBe(401);
    expect((await call("/api/account/tokens", { token: someone.token })).body.tokens).toEqual([]);
    expect((await call("/api/auth/me", { token: someone.token })).status).toBe(200);
    expect((await call("/api/auth/me", { token: kept })).status).toBe(200);
    expect((await admin(["tokens", "revoke", someone.email])).stdout).toBe(
      `Revoked 0 API tokens of ${someone.email}: their scripts get 401 until they make new ones.\n`,
    );
  });

  it("disable ends the person's API tokens for good: enable does not bring them back", async () => {
    const someone = await person("tokens-disable");
    const token = (await call("/api/account/tokens", { token: someone.token, json: { name: "nightly" } })).body
      .token as string;
    expect((await call("/api/auth/me", { token })).status).toBe(200);
    const run = await admin(["disable", someone.email]);
    expect(run.stdout).toBe(
      `Disabled ${someone.email}: login is refused, 1 session ended, 1 API token revoked and 0 video jobs cancelled.\n`,
    );
    expect((await call("/api/auth/me", { token })).status).toBe(401);
    expect((await admin(["enable", someone.email])).code).toBe(0);
    expect((await call("/api/auth/me", { token })).status).toBe(401);
    // They sign in again and see no token left to use.
    const again = await call("/api/auth/login", { json: { email: someone.email, password: PASSWORD } });
    expect((await call("/api/account/tokens", { token: again.body.access_token })).body.tokens).toEqual([]);
  });

  it("delete: asks first (a wrong answer deletes nothing), then removes the person's rows and files; --yes asks nothing", async () => {
    const someone = await person("delete");
    const upload = await call("/api/videos/upload", {
      token: someone.token,
      body: videoForm(mp4Bytes(50_000), "mine.mp4"),
    });
    expect(upload.status).toBe(201);
    expect((await call("/api/content", { token: someone.token, json: { title: "Mine", body: "text" } })).status).toBe(
      201,
    );
    const library = (await call("/api/library", { token: someone.token })).body;
    const [file] = library.files;
    const stored = path.join(server.dataDir, "media", "objects", file.id.slice(0, 2), file.id);
    expect(fs.existsSync(stored)).toBe(true);

    const declined = await admin(["delete", someone.email], { input: "no\n" });
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain(
      `Delete ${someone.email} with 1 item(s), 1 file(s) and 0 project(s)? This cannot be undone. Type the email to confirm:`,
    );
    expect(declined.stderr).toContain("Not confirmed: nothing was deleted.");
    expect((await call("/api/auth/me", { token: someone.token })).status).toBe(200);
    expect((await admin(["delete", someone.email])).code).toBe(1);

    const confirmed = await admin(["delete", someone.email], { input: `${someone.email}\n` });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stdout).toBe(`Deleted ${someone.email}: their account, rows and 1 file(s).\n`);
    expect(fs.existsSync(stored)).toBe(false);
    expect((await call("/api/auth/me", { token: someone.token })).status).toBe(401);
    expect((await call("/api/auth/login", { json: { email: someone.email, password: PASSWORD } })).status).toBe(401);
    expect((await admin(["users"])).stdout).not.toContain(someone.email);
    // The email is free again.
    expect((await call("/api/auth/register", { json: { email: someone.email, password: PASSWORD } })).status).toBe(201);

    const quick = await person("delete-yes");
    const yes = await admin(["delete", "--yes", quick.email]);
    expect(yes.code).toBe(0);
    expect(yes.stderr).not.toContain("Type the email");
    expect((await call("/api/auth/me", { token: quick.token })).status).toBe(401);
  });
});
