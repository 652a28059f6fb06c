import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../support/admin";
import { startTestServer, type RunningServer } from "../support/server";
import { api, newUser } from "../support/api";

/**
 * `npm run admin -- shares <email>` and `shares revoke <email>` (docs/decisions/0069), spawned as an operator
 * runs them against a running server's data: the list shows the person's live links without the links
 * themselves, and revoke ends them all, as the server's next answer shows.
 */
let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const admin = (args: string[]) => runAdmin(args, { dataDir: server.dataDir });
const call = (pathname: string, token: string, init: { json?: unknown; method?: string } = {}) =>
  api(pathname, { token, json: init.json, method: init.method, server: server.url });

describe("npm run admin -- shares", { timeout: 120_000 }, () => {
  it("lists a person's links (id, kind, title, views / max, expiry, state) and revokes them all", async () => {
    const owner = await newUser("admin-shares", server.url);
    const other = await newUser("admin-shares-other", server.url);
    const item = await call("/api/content", owner.token, { json: { title: "Operator's view", body: "" } });
    const limited = await call("/api/shares", owner.token, {
      json: { kind: "content", id: item.body.id, max_views: 5, expires_in_hours: 24 },
    });
    const open = await call("/api/shares", owner.token, { json: { kind: "content", id: item.body.id } });
    const othersItem = await call("/api/content", other.token, { json: { title: "Not theirs", body: "" } });
    const kept = await call("/api/shares", other.token, { json: { kind: "content", id: othersItem.body.id } });

    const listed = await admin(["shares", owner.email.toUpperCase()]);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split("\n");
    expect(lines[0].split(/\s{2,}/)).toEqual(["id", "kind", "title", "views / max", "expires (UTC)", "state"]);
    expect(lines[2].split(/\s{2,}/)).toEqual([
      open.body.id,
      "content",
      "Operator's view",
      "0 / no limit",
      "never",
      "active",
    ]);
    expect(lines[3].split(/\s{2,}/)).toEqual([
      limited.body.id,
      "content",
      "Operator's view",
      "0 / 5",
      `${limited.body.expires_at.slice(0, 10)} ${limited.body.expires_at.slice(11, 16)}`,
      "active",
    ]);
    expect(lines.at(-1)).toBe("2 share links");
    // Never the links themselves: they open the target for anyone.
    expect(listed.stdout).not.toContain(open.body.url.split("/s/")[1]);

    const revoked = await admin(["shares", "revoke", owner.email]);
    expect(revoked).toMatchObject({ code: 0, stderr: "" });
    expect(revoked.stdout).toBe(`Revoked 2 share links of ${owner.email}: they answer 410 from now on.\n`);
    expect((await call("/api/shares", owner.token)).body.shares).toEqual([]);
    expect((await admin(["shares", owner.email])).stdout).toBe("No share links.\n");
    expect((await admin(["shares", "revoke", owner.email])).stdout).toContain("Revoked 0 share links");
    // Another person's links are untouched.
    expect((await call("/api/shares", other.token)).body.shares.map((s: { id: string }) => s.id)).toEqual([
      kept.body.id,
    ]);
  });

  it.each([
    [["shares"], /expected: shares <email> \| shares revoke <email>/],
    [["shares", "revoke"], /expected: shares <email> \| shares revoke <email>/],
    [["shares", "nobody@example.com"], /no account with the email nobody@example.com/],
  ])("%j: a clear message on stderr, exit 2", async (args, message) => {
    const run = await admin(args as string[]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
