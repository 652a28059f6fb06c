import { describe, expect, it } from "vitest";
import { db } from "~/lib/db/db.server";
import { sha256 } from "~/lib/db/ids.server";
import {
  deleteExpiredRefreshTokens,
  issueTokenPair,
  revokeRefreshToken,
  REFRESH_GRACE_MS,
  rotateRefreshToken,
} from "~/models/accounts/token-pair.server";
import { pruneStaleRecords } from "~/services/operators/housekeeping.server";
import { verifyAccessToken, verifyAccessTokenSignature } from "~/models/accounts/access-token.server";
import { createHmac } from "node:crypto";
import { jwtVerify } from "jose";
import { keys } from "~/lib/settings/keys.server";
import { createUser } from "~/models/accounts/user.server";

const user = () => createUser(`tokens-${crypto.randomUUID()}@example.com`, "password123");

describe("access tokens", () => {
  it("carry the user id and expire after 15 minutes", async () => {
    const { id } = await user();
    const issuedAt = new Date();
    const pair = await issueTokenPair(id, issuedAt);
    expect(pair.token_type).toBe("bearer");
    expect(await verifyAccessToken(pair.access_token, issuedAt)).toBe(id);
    expect(await verifyAccessToken(pair.access_token, new Date(issuedAt.getTime() + 14 * 60_000))).toBe(id);
    expect(await verifyAccessToken(pair.access_token, new Date(issuedAt.getTime() + 16 * 60_000))).toBeNull();
  });

  it("refuse tampered tokens", async () => {
    const { id } = await user();
    const { access_token } = await issueTokenPair(id);
    const [header, payload, signature] = access_token.split(".");
    const forged = Buffer.from(JSON.stringify({ sub: "someone-else", iss: "creative-ai-studio", exp: 9e9 })).toString(
      "base64url",
    );
    expect(await verifyAccessToken(`${header}.${forged}.${signature}`)).toBeNull();
    expect(await verifyAccessToken(`${header}.${payload}.${signature.slice(0, -2)}xx`)).toBeNull();
    expect(await verifyAccessToken("not-a-token")).toBeNull();
  });
});

describe("access token checks (jose, remembered per token), held to jose's own verdicts", () => {
  const secret = () => Buffer.from(keys.accessToken());
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  /** A token over any header and claims, signed with our key (or another) by HMAC-SHA256. */
  const sign = (header: unknown, claims: unknown, key = secret()) => {
    const body = `${part(header)}.${part(claims)}`;
    return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
  };
  const now = new Date();
  const seconds = Math.floor(now.getTime() / 1000);
  const good = { sub: "user-1", fid: "family-1", iss: "creative-ai-studio", iat: seconds, exp: seconds + 900 };
  const joseAccepts = async (token: string) => {
    try {
      await jwtVerify(token, secret(), {
        issuer: "creative-ai-studio",
        algorithms: ["HS256"],
        currentDate: now,
        requiredClaims: ["exp", "sub", "fid"],
      });
      return true;
    } catch {
      return false;
    }
  };

  it.each([
    ["a good token", sign({ alg: "HS256" }, good), true],
    ["a typ header", sign({ alg: "HS256", typ: "JWT" }, good), true],
    ["alg none", `${part({ alg: "none" })}.${part(good)}.`, false],
    ["alg HS512", sign({ alg: "HS512" }, good), false],
    ["a crit header", sign({ alg: "HS256", crit: ["x"], x: 1 }, good), false],
    ["another key", sign({ alg: "HS256" }, good, Buffer.from("another key entirely")), false],
    ["another issuer", sign({ alg: "HS256" }, { ...good, iss: "someone" }), false],
    ["no issuer", sign({ alg: "HS256" }, { ...good, iss: undefined }), false],
    ["no exp", sign({ alg: "HS256" }, { ...good, exp: undefined }), false],
    ["exp now", sign({ alg: "HS256" }, { ...good, exp: seconds }), false],
    ["exp as text", sign({ alg: "HS256" }, { ...good, exp: String(seconds + 900) }), false],
    ["nbf ahead", sign({ alg: "HS256" }, { ...good, nbf: seconds + 60 }), false],
    ["nbf behind", sign({ alg: "HS256" }, { ...good, nbf: seconds - 60 }), true],
    ["iat as text", sign({ alg: "HS256" }, { ...good, iat: "yesterday" }), false],
    ["claims not an object", `${part({ alg: "HS256" })}.${Buffer.from("[1]").toString("base64url")}.x`, false],
    ["two parts", "a.b", false],
  ])("%s", async (_name, token, accepted) => {
    expect(await joseAccepts(token)).toBe(accepted);
    expect((await verifyAccessTokenSignature(token, now)) !== null).toBe(accepted);
    // Asked again, a remembered token gets the same verdict.
    expect((await verifyAccessTokenSignature(token, now)) !== null).toBe(accepted);
  });
});

describe("refresh tokens", () => {
  it("are stored only as a hash, for 30 days", async () => {
    const { id } = await user();
    const now = new Date();
    const { refresh_token } = await issueTokenPair(id, now);
    const stored = await db
      .selectFrom("refresh_tokens")
      .selectAll()
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(sha256(refresh_token));
    expect(JSON.stringify(stored)).not.toContain(refresh_token);
    expect(new Date(stored.expires_at).getTime() - now.getTime()).toBe(30 * 86_400_000);
  });

  it("rotate: each use gives a new pair and spends the old token", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const second = await rotateRefreshToken(first.refresh_token);
    expect(second.ok).toBe(true);
    if (!second.ok) return;
    expect(second.userId).toBe(id);
    expect(second.pair.refresh_token).not.toBe(first.refresh_token);
    expect(await verifyAccessToken(second.pair.access_token)).toBe(id);
    const third = await rotateRefreshToken(second.pair.refresh_token);
    expect(third.ok).toBe(true);
  });

  it("reuse of a spent token after the grace window is refused and revokes the whole family", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const second = await rotateRefreshToken(first.refresh_token);
    if (!second.ok) throw new Error("rotation failed");
    const afterGrace = new Date(Date.now() + REFRESH_GRACE_MS + 1_000);
    expect(await rotateRefreshToken(first.refresh_token, afterGrace)).toEqual({ ok: false, reason: "reused" });
    // The thief's replay also killed the legitimate descendant.
    expect(await rotateRefreshToken(second.pair.refresh_token)).toEqual({ ok: false, reason: "revoked" });
  });

  it("other login families are untouched by one family's revocation", async () => {
    const { id } = await user();
    const phone = await issueTokenPair(id);
    const laptop = await issueTokenPair(id);
    await revokeRefreshToken(phone.refresh_token);
    expect((await rotateRefreshToken(phone.refresh_token)).ok).toBe(false);
    expect((await rotateRefreshToken(laptop.refresh_token)).ok).toBe(true);
  });

  it("expire after 30 days and unknown tokens are refused", async () => {
    const { id } = await user();
    const issued = new Date("2026-01-01T00:00:00Z");
    const pair = await issueTokenPair(id, issued);
    expect(await rotateRefreshToken(pair.refresh_token, new Date("2026-02-01T00:00:00Z"))).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(await rotateRefreshToken("made-up")).toEqual({ ok: false, reason: "unknown" });
  });

  it("concurrent server-side refreshes of one cookie share a single rotation (through the database)", async () => {
    const { id } = await user();
    const pair = await issueTokenPair(id);
    const [a, b, c] = await Promise.all([
      rotateRefreshToken(pair.refresh_token),
      rotateRefreshToken(pair.refresh_token),
      rotateRefreshToken(pair.refresh_token),
    ]);
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (a.ok && b.ok) expect(a.pair.refresh_token).toBe(b.pair.refresh_token);
    const family = await db.selectFrom("refresh_tokens").select("revoked_at").where("user_id", "=", id).execute();
    expect(family).toHaveLength(2);
    expect(family.every((row) => row.revoked_at === null)).toBe(true);
  });
});

describe("housekeeping", () => {
  // Was "is scheduled when the module loads": nothing starts on import any more; the server's
  // life cycle schedules pruneQuietly, app/services/operators/housekeeping.server.ts (see tests/unit/session-revocation.test.ts).
  it("is not started when the module loads", () => {
    expect((globalThis as { studioHousekeeping?: NodeJS.Timeout }).studioHousekeeping).toBeUndefined();
  });

  it("deletes expired refresh tokens and keeps live ones", async () => {
    const { id } = await user();
    const now = new Date();
    await issueTokenPair(id, new Date(now.getTime() - 31 * 86_400_000));
    const live = await issueTokenPair(id, now);
    await deleteExpiredRefreshTokens(now);
    const rows = await db.selectFrom("refresh_tokens").select("token_hash").where("user_id", "=", id).execute();
    expect(rows).toEqual([{ token_hash: sha256(live.refresh_token) }]);
  });

  it("pruneStaleRecords (run at start and hourly) also drops old login and registration attempts", async () => {
    const { id } = await user();
    const now = new Date();
    const longAgo = new Date(now.getTime() - 40 * 86_400_000).toISOString();
    await issueTokenPair(id, new Date(now.getTime() - 31 * 86_400_000));
    await db
      .insertInto("login_attempts")
      .values({ email: "gone@example.com", client_address: "10.9.0.1", attempted_at: longAgo })
      .execute();
    await db
      .insertInto("registration_attempts")
      .values({ id: crypto.randomUUID(), client_address: "10.9.0.1", attempted_at: longAgo })
      .execute();
    await pruneStaleRecords(now);
    expect(await db.selectFrom("refresh_tokens").select("id").where("user_id", "=", id).execute()).toEqual([]);
    expect(
      await db.selectFrom("login_attempts").select("id").where("client_address", "=", "10.9.0.1").execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom("registration_attempts").select("id").where("client_address", "=", "10.9.0.1").execute(),
    ).toEqual([]);
  });
});
