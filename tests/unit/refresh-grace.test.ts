import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSession, sessionStorage } from "~/auth/session.server";
import { engineOf } from "../../db/portable";
import { closeDatabase, db, openDatabase } from "~/lib/db/db.server";
import { env } from "~/lib/settings/env.server";
import { sha256 } from "~/lib/db/ids.server";
import {
  clearSpentSuccessors,
  issueTokenPair,
  REFRESH_GRACE_MS,
  revokeRefreshToken,
  rotateRefreshToken,
  type RotationResult,
  type TokenPair,
} from "~/models/accounts/token-pair.server";
import { verifyAccessToken } from "~/models/accounts/access-token.server";
import { createUser } from "~/models/accounts/user.server";
import { postgresAvailable, startPgCluster, type PgCluster } from "../harness/pg-cluster.mjs";

/**
 * Refresh-token rotation's grace window (decision 0015; RFC 9700 §4.14.2): within
 * REFRESH_GRACE_MS of an exchange, the spent refresh token answers with the same successor pair (kept
 * sealed in the database, so on every instance); after it, reuse revokes the whole family.
 *
 * The suite runs on the database the unit setup opened (SQLite, or PostgreSQL under `npm run test:pg`)
 * and, when that is SQLite and PostgreSQL's binaries are installed, once more on a throwaway cluster
 * (tests/harness/pg-cluster.mjs), so the race for the one winner is tried on a real connection pool too.
 * Without PostgreSQL that half is left out with a note.
 */

const user = () => createUser(`grace-${crypto.randomUUID()}@example.com`, "password123");
const later = (ms: number) => new Date(Date.now() + ms);
const afterGrace = () => later(REFRESH_GRACE_MS + 1_000);

const rowOf = (refreshToken: string) =>
  db.selectFrom("refresh_tokens").selectAll().where("token_hash", "=", sha256(refreshToken)).executeTakeFirstOrThrow();
const familyRows = (familyId: string) =>
  db.selectFrom("refresh_tokens").selectAll().where("family_id", "=", familyId).execute();

function pairOf(result: RotationResult): TokenPair {
  if (!result.ok) throw new Error(`rotation refused: ${result.reason}`);
  return result.pair;
}

const accessKey = () => new TextEncoder().encode(`access-token:${process.env.SESSION_SECRET}`);
const expiredAccessToken = (userId: string) =>
  new SignJWT({ fid: "whatever" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuer("creative-ai-studio")
    .setIssuedAt(1)
    .setExpirationTime(2)
    .sign(accessKey());
async function cookieFor(accessToken: string, refreshToken: string) {
  const session = await sessionStorage.getSession();
  session.set("accessToken", accessToken);
  session.set("refreshToken", refreshToken);
  return (await sessionStorage.commitSession(session)).split(";")[0];
}

function graceSuite() {
  it("ten parallel refreshes with one token: ten answers with one identical pair, and the pair works", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const results = await Promise.all(Array.from({ length: 10 }, () => rotateRefreshToken(first.refresh_token)));
    expect(results.map((r) => r.ok)).toEqual(Array(10).fill(true));
    const pairs = results.map(pairOf);
    expect(new Set(pairs.map((p) => p.refresh_token)).size).toBe(1);
    expect(new Set(pairs.map((p) => p.access_token)).size).toBe(1);
    expect(results.every((r) => r.ok && r.userId === id)).toBe(true);

    // One rotation happened: the spent token and one successor, neither revoked.
    const spent = await rowOf(first.refresh_token);
    const rows = await familyRows(spent.family_id);
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.revoked_at === null)).toBe(true);

    // The pair works: its access token opens, its refresh token rotates on.
    const [pair] = pairs;
    expect(await verifyAccessToken(pair.access_token)).toBe(id);
    const next = await rotateRefreshToken(pair.refresh_token);
    expect(next.ok).toBe(true);
    expect(pairOf(next).refresh_token).not.toBe(pair.refresh_token);
  });

  it("a retry of the spent token within the window (a lost answer) gets the same pair", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const pair = pairOf(await rotateRefreshToken(first.refresh_token));
    const retry = await rotateRefreshToken(first.refresh_token, later(REFRESH_GRACE_MS - 1_000));
    expect(retry).toEqual({ ok: true, userId: id, pair });
    expect(await verifyAccessToken(pair.access_token)).toBe(id);
  });

  it("after the window, the spent token is reuse: 401 and the whole family, successor included, is revoked", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const pair = pairOf(await rotateRefreshToken(first.refresh_token));
    expect(await rotateRefreshToken(first.refresh_token, afterGrace())).toEqual({ ok: false, reason: "reused" });
    expect(await rotateRefreshToken(pair.refresh_token)).toEqual({ ok: false, reason: "revoked" });
    expect(await verifyAccessToken(pair.access_token)).toBeNull();
    expect(await verifyAccessToken(first.access_token)).toBeNull();
    const rows = await familyRows((await rowOf(first.refresh_token)).family_id);
    expect(rows.every((row) => row.revoked_at !== null && row.successor_sealed === null)).toBe(true);
    // And within the window once more (a thief too late): still refused.
    expect((await rotateRefreshToken(first.refresh_token)).ok).toBe(false);
  });

  it("the window is a parameter: a 0 ms window makes any replay reuse", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    pairOf(await rotateRefreshToken(first.refresh_token));
    expect(await rotateRefreshToken(first.refresh_token, later(5), { graceMs: 0 })).toEqual({
      ok: false,
      reason: "reused",
    });
  });

  it("a logout within the window ends it: the spent token no longer answers", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const pair = pairOf(await rotateRefreshToken(first.refresh_token));
    await revokeRefreshToken(pair.refresh_token);
    expect(await rotateRefreshToken(first.refresh_token)).toEqual({ ok: false, reason: "revoked" });
  });

  it("the successor pair is stored sealed, never in plaintext, bound to its row", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const second = await issueTokenPair(id);
    const pair = pairOf(await rotateRefreshToken(first.refresh_token));
    const spent = await rowOf(first.refresh_token);
    expect(spent.successor_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    const stored = JSON.stringify(
      await db.selectFrom("refresh_tokens").selectAll().where("user_id", "=", id).execute(),
    );
    expect(stored).not.toContain(pair.refresh_token);
    expect(stored).not.toContain(pair.access_token);
    expect(stored).not.toContain(pair.access_token.split(".")[2]);

    // Copied into another spent row, the sealed pair does not open there (the row id is bound in).
    pairOf(await rotateRefreshToken(second.refresh_token));
    await db
      .updateTable("refresh_tokens")
      .set({ successor_sealed: spent.successor_sealed })
      .where("token_hash", "=", sha256(second.refresh_token))
      .execute();
    expect(await rotateRefreshToken(second.refresh_token, new Date(), { waitMs: 50 })).toEqual({
      ok: false,
      reason: "reused",
    });
    // That family is revoked; the first one is untouched.
    expect(await rotateRefreshToken(first.refresh_token)).toEqual({ ok: true, userId: id, pair });
  });

  it("a request that lost the race waits (bounded) for the winner's pair to be recorded", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const pair = pairOf(await rotateRefreshToken(first.refresh_token));
    const spent = await rowOf(first.refresh_token);
    // As if the winner (on another instance) had not recorded its pair yet: it appears 200 ms later.
    await db.updateTable("refresh_tokens").set({ successor_sealed: null }).where("id", "=", spent.id).execute();
    const restore = setTimeout(() => {
      void db
        .updateTable("refresh_tokens")
        .set({ successor_sealed: spent.successor_sealed })
        .where("id", "=", spent.id)
        .execute();
    }, 200);
    try {
      const started = Date.now();
      expect(await rotateRefreshToken(first.refresh_token)).toEqual({ ok: true, userId: id, pair });
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    } finally {
      clearTimeout(restore);
    }
  });

  it("with no pair recorded within the wait, the replay is refused as reuse (bounded in time)", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const pair = pairOf(await rotateRefreshToken(first.refresh_token));
    await db
      .updateTable("refresh_tokens")
      .set({ successor_sealed: null })
      .where("token_hash", "=", sha256(first.refresh_token))
      .execute();
    const started = Date.now();
    expect(await rotateRefreshToken(first.refresh_token, new Date(), { waitMs: 100 })).toEqual({
      ok: false,
      reason: "reused",
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await verifyAccessToken(pair.access_token)).toBeNull();
  });

  it("housekeeping clears sealed pairs once their window has passed, and keeps the ones within it", async () => {
    const { id } = await user();
    const old = await issueTokenPair(id);
    const fresh = await issueTokenPair(id);
    pairOf(await rotateRefreshToken(old.refresh_token, later(-REFRESH_GRACE_MS - 5_000)));
    pairOf(await rotateRefreshToken(fresh.refresh_token));
    await clearSpentSuccessors();
    expect((await rowOf(old.refresh_token)).successor_sealed).toBeNull();
    expect((await rowOf(fresh.refresh_token)).successor_sealed).not.toBeNull();
  });

  it("the cookie path uses the same mechanism: a page load's parallel requests all get the same new cookie pair", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const cookie = await cookieFor(await expiredAccessToken(id), first.refresh_token);
    const request = () => new Request("http://studio.test/dashboard", { headers: { Cookie: cookie } });
    const resolved = await Promise.all(Array.from({ length: 6 }, () => resolveSession(request())));
    expect(resolved.map((r) => r.session.user?.id)).toEqual(Array(6).fill(id));
    const refreshTokens = new Set(resolved.map((r) => r.session.refreshToken));
    expect(refreshTokens.size).toBe(1);
    // And an API client retrying the same token by the body within the window gets that very pair.
    const byBody = pairOf(await rotateRefreshToken(first.refresh_token));
    expect(refreshTokens.has(byBody.refresh_token)).toBe(true);
    const session = await sessionStorage.getSession(resolved[0].setCookie!.split(";")[0]);
    expect(session.get("refreshToken")).toBe(byBody.refresh_token);
    expect(session.get("accessToken")).toBe(byBody.access_token);
  });
}

describe("refresh-token grace window, on the database the unit setup opened", () => {
  it("names its engine", () => {
    console.log(`[refresh-grace.test] first half on ${engineOf(db)}`);
    expect(["sqlite", "postgres"]).toContain(engineOf(db));
  });
  graceSuite();
});

// The second half: PostgreSQL from a throwaway cluster, when the first half ran on SQLite.
const secondOnPostgres = !/^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? "") && postgresAvailable();
if (!secondOnPostgres && !process.env.DATABASE_URL) {
  console.warn(
    "[refresh-grace.test] PostgreSQL half NOT RUN: no PostgreSQL binaries found (install Debian's postgresql or run npm run test:pg).",
  );
}

if (secondOnPostgres)
  describe("refresh-token grace window, on PostgreSQL (throwaway cluster)", () => {
    let cluster: PgCluster | undefined;
    beforeAll(async () => {
      cluster = await startPgCluster({ database: "studio_refresh_grace" });
      await closeDatabase();
      await openDatabase({ ...env, database: { engine: "postgres", url: cluster.url } });
      expect(engineOf(db)).toBe("postgres");
    });
    afterAll(async () => {
      await closeDatabase();
      await cluster?.stop();
      await openDatabase(); // back to the file's SQLite database, which the setup closes
    });
    graceSuite();
  });
