import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, db, openDatabase } from "~/lib/db/db.server";
import { parseSettings } from "~/lib/settings/env.server";
import { nowIso, sha256 } from "~/lib/db/ids.server";
import { inviteCodeOf, runAdmin } from "../support/admin";
import { databaseEnvOf, startTestServer, type RunningServer } from "../support/server";
import { api, baseUrl, PASSWORD, uniqueEmail } from "../support/api";
import { register as registerThrough } from "../support/client.mjs";

/**
 * REGISTRATION (decision 0046): open, the behaviour in docs/screens.md and the default, unchanged; invite: POST
 * /api/auth/register and the Register screen need a usable invitation (`npm run admin -- invite`), which
 * works once, also for registrations racing with it, and not after it expires; closed: nobody registers.
 */
const NEEDED =
  "An invitation is needed to register here. Ask the person who runs this studio for an invitation link; each link works once and expires.";
const CLOSED = "Registration is closed on this studio. Ask the person who runs it for an account.";

async function call(server: RunningServer, path: string, json: unknown) {
  const response = await fetch(server.url + path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(json),
  });
  return { status: response.status, body: await response.json() };
}

async function page(server: RunningServer | null, path: string, init?: RequestInit) {
  const response = await fetch((server?.url ?? baseUrl()) + path, { redirect: "manual", ...init });
  return { status: response.status, html: await response.text() };
}

async function register(server: RunningServer, email: string, invite?: string) {
  const { status, body } = await registerThrough(server.url, email, { invite });
  return { status, body };
}

describe("REGISTRATION=open (the default)", () => {
  it("registers anyone, with no invitation, and the screen shows its form", async () => {
    expect((await api("/api/auth/register", { json: { email: uniqueEmail("open"), password: PASSWORD } })).status).toBe(
      201,
    );
    const { status, html } = await page(null, "/register");
    expect(status).toBe(200);
    expect(html).toContain('aria-label="Register"');
    expect(html).not.toContain(NEEDED);
    expect(html).not.toContain('name="invite"');
  });
});

describe("REGISTRATION=invite", () => {
  let server: RunningServer;
  const invite = async (args: string[] = []) => {
    const run = await runAdmin(["invite", ...args], {
      dataDir: server.dataDir,
      env: { REGISTRATION: "invite", PUBLIC_URL: server.url },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toMatch(new RegExp(`^${server.url}/register\\?invite=[A-Za-z0-9_-]{22}$`));
    return inviteCodeOf(run);
  };

  beforeAll(async () => {
    server = await startTestServer({ REGISTRATION: "invite" });
  });
  afterAll(async () => {
    await server?.stop();
    await closeDatabase();
  });

  it("without an invitation, or with one that does not exist: 403 with a detail", async () => {
    expect(await register(server, uniqueEmail("none"))).toEqual({ status: 403, body: { detail: NEEDED } });
    expect(await register(server, uniqueEmail("bogus"), "x".repeat(22))).toEqual({
      status: 403,
      body: { detail: NEEDED },
    });
    expect(await register(server, uniqueEmail("wrong-type"), 42 as unknown as string)).toEqual({
      status: 403,
      body: { detail: NEEDED },
    });
  });

  it("an invitation registers once; the same code again is 403", async () => {
    const code = await invite();
    const email = uniqueEmail("invited");
    const first = await register(server, email, code);
    expect(first).toEqual({ status: 201, body: { id: expect.any(String), email } });
    expect(await register(server, uniqueEmail("again"), code)).toEqual({ status: 403, body: { detail: NEEDED } });
    // The person can sign in.
    expect((await call(server, "/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
  });

  it("registrations racing with one code: exactly one succeeds", async () => {
    const code = await invite();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => register(server, uniqueEmail(`race${i}`), code)),
    );
    expect(results.map((result) => result.status).sort()).toEqual([201, 403, 403, 403, 403, 403]);
  });

  it("an expired invitation is 403", async () => {
    const code = await invite(["--days", "1"]);
    // Its expiry moved into the past, in the server's own database (SQLite file or PostgreSQL).
    await closeDatabase();
    await openDatabase(parseSettings({ DATA_DIR: server.dataDir, ...databaseEnvOf(server.dataDir) }));
    await db
      .updateTable("invitations")
      .set({ expires_at: nowIso(new Date(Date.now() - 1000)) })
      .where("code_hash", "=", sha256(code))
      .execute();
    expect(await register(server, uniqueEmail("late"), code)).toEqual({ status: 403, body: { detail: NEEDED } });
  });

  it("the Register screen: an invitation link shows the form with the code as a hidden field; none shows the message", async () => {
    const code = await invite();
    const invited = await page(server, `/register?invite=${code}`);
    expect(invited.html).toContain(`<input type="hidden" name="invite" value="${code}"/>`);
    expect(invited.html).not.toContain(NEEDED);
    const without = await page(server, "/register");
    expect(without.html).toContain(NEEDED);
    expect(without.html).not.toContain('aria-label="Register"');
    const bogus = await page(server, "/register?invite=nothing-like-a-code");
    expect(bogus.html).toContain(NEEDED);

    // The form as a browser without JavaScript posts it: the account is created once.
    const form = (email: string) =>
      page(server, `/register?invite=${code}`, {
        method: "POST",
        headers: { Origin: server.url },
        body: new URLSearchParams({ invite: code, email, password: PASSWORD, confirmPassword: PASSWORD }),
      });
    const created = await form(uniqueEmail("form"));
    expect(created.status).toBe(200);
    expect(created.html).toContain("Account created!");
    const reused = await form(uniqueEmail("form-again"));
    expect(reused.status).toBe(403);
    expect(reused.html).toContain(NEEDED);
  });
});

describe("REGISTRATION=closed", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ REGISTRATION: "closed" });
  });
  afterAll(async () => server?.stop());

  it("refuses every registration with 403, an invitation's too", async () => {
    expect(await register(server, uniqueEmail("closed"))).toEqual({ status: 403, body: { detail: CLOSED } });
    const code = inviteCodeOf(await runAdmin(["invite"], { dataDir: server.dataDir, env: { REGISTRATION: "closed" } }));
    expect(await register(server, uniqueEmail("closed-invited"), code)).toEqual({
      status: 403,
      body: { detail: CLOSED },
    });
  });

  it("the Register screen says registration is closed instead of showing a form", async () => {
    const { status, html } = await page(server, "/register");
    expect(status).toBe(200);
    expect(html).toContain(CLOSED);
    expect(html).not.toContain('aria-label="Register"');
  });
});

describe("a bad REGISTRATION", () => {
  it("stops the server at start with a clear message", async () => {
    await expect(startTestServer({ REGISTRATION: "maybe" })).rejects.toThrow(
      /REGISTRATION must be one of open, invite, closed, got "maybe"/,
    );
  });
});
