import { SignJWT } from "jose";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/lib/db/db.server";
import { sha256 } from "~/lib/db/ids.server";
import { resolveSession, sessionStorage } from "~/auth/session.server";
import {
  issueTokenPair,
  REFRESH_GRACE_MS,
  revokeRefreshToken,
  rotateRefreshToken,
} from "~/models/accounts/token-pair.server";
import { pruneQuietly } from "~/services/operators/housekeeping.server";
import { userOfAccessToken, verifyAccessToken } from "~/models/accounts/access-token.server";
import { createUser } from "~/models/accounts/user.server";

const user = () => createUser(`revocation-${crypto.randomUUID()}@example.com`, "password123");
const accessKey = () => new TextEncoder().encode(`access-token:${process.env.SESSION_SECRET}`);

async function cookieFor(accessToken: string, refreshToken: string) {
  const session = await sessionStorage.getSession();
  session.set("accessToken", accessToken);
  session.set("refreshToken", refreshToken);
  return (await sessionStorage.commitSession(session)).split(";")[0];
}
const requestWith = (cookie: string) => new Request("http://studio.test/dashboard", { headers: { Cookie: cookie } });

describe("a revoked session stops working on the next request", () => {
  it("logout ends the access token at once, not 15 minutes later", async () => {
    const { id } = await user();
    const pair = await issueTokenPair(id);
    expect(await verifyAccessToken(pair.access_token)).toBe(id);
    await revokeRefreshToken(pair.refresh_token);
    expect(await verifyAccessToken(pair.access_token)).toBeNull();
  });

  it("a reused refresh token revokes the family, and the family's access tokens with it", async () => {
    const { id } = await user();
    const first = await issueTokenPair(id);
    const second = await rotateRefreshToken(first.refresh_token);
    if (!second.ok) throw new Error("rotation failed");
    expect(await verifyAccessToken(first.access_token)).toBe(id);
    expect(await verifyAccessToken(second.pair.access_token)).toBe(id);
    // Presented again after the grace window: reuse.
    const afterGrace = new Date(Date.now() + REFRESH_GRACE_MS + 1_000);
    expect(await rotateRefreshToken(first.refresh_token, afterGrace)).toEqual({ ok: false, reason: "reused" });
    expect(await verifyAccessToken(first.access_token)).toBeNull();
    expect(await verifyAccessToken(second.pair.access_token)).toBeNull();
  });

  it("other sessions of the same person keep working", async () => {
    const { id } = await user();
    const phone = await issueTokenPair(id);
    const laptop = await issueTokenPair(id);
    await revokeRefreshToken(phone.refresh_token);
    expect(await verifyAccessToken(phone.access_token)).toBeNull();
    expect(await verifyAccessToken(laptop.access_token)).toBe(id);
  });

  it("the state is in the database: a family revoked there (by another instance) is refused here", async () => {
    const { id } = await user();
    const pair = await issueTokenPair(id);
    const { family_id } = await db
      .selectFrom("refresh_tokens")
      .select("family_id")
      .where("token_hash", "=", sha256(pair.refresh_token))
      .executeTakeFirstOrThrow();
    await db
      .updateTable("refresh_tokens")
      .set({ revoked_at: new Date().toISOString() })
      .where("family_id", "=", family_id)
      .execute();
    expect(await verifyAccessToken(pair.access_token)).toBeNull();
  });

  it("an old copy of the session cookie opens nothing after logout", async () => {
    const { id } = await user();
    const pair = await issueTokenPair(id);
    const cookie = await cookieFor(pair.access_token, pair.refresh_token);
    expect((await resolveSession(requestWith(cookie))).session.user?.id).toBe(id);
    await revokeRefreshToken(pair.refresh_token);
    const after = await resolveSession(requestWith(cookie));
    expect(after.session.user).toBeNull();
    expect(after.setCookie).toMatch(/^__session=;/);
  });

  it("a rotation shared a moment before the logout does not bring the session back", async () => {
    const { id } = await user();
    const pair = await issueTokenPair(id);
    // The access token has expired: the cookie's pair is rotated (and the result answered again for a few seconds).
    const expired = await new SignJWT({ fid: "whatever" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(id)
      .setIssuer("creative-ai-studio")
      .setIssuedAt(1)
      .setExpirationTime(2)
      .sign(accessKey());
    const cookie = await cookieFor(expired, pair.refresh_token);
    const rotated = await rotateRefreshToken(pair.refresh_token);
    if (!rotated.ok) throw new Error("rotation failed");
    await revokeRefreshToken(rotated.pair.refresh_token);
    expect((await resolveSession(requestWith(cookie))).session.user).toBeNull();
  });

  it("a family whose refresh tokens have all expired ends its access tokens too", async () => {
    const { id } = await user();
    const issued = new Date("2026-01-01T00:00:00Z");
    const pair = await issueTokenPair(id, issued);
    expect(await verifyAccessToken(pair.access_token, new Date(issued.getTime() + 60_000))).toBe(id);
    expect(await verifyAccessToken(pair.access_token, new Date(issued.getTime() + 31 * 86_400_000))).toBeNull();
  });
});

describe("access tokens must carry exp, sub and their family", () => {
  const sign = (claims: Record<string, unknown>, build: (jwt: SignJWT) => SignJWT = (jwt) => jwt) =>
    build(new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setIssuer("creative-ai-studio").setIssuedAt()).sign(
      accessKey(),
    );

  it("a token signed with the real key but without exp is refused", async () => {
    const { id } = await user();
    const pair = await issueTokenPair(id);
    const { family_id } = await db
      .selectFrom("refresh_tokens")
      .select("family_id")
      .where("token_hash", "=", sha256(pair.refresh_token))
      .executeTakeFirstOrThrow();
    const withExp = await sign({ fid: family_id }, (jwt) => jwt.setSubject(id).setExpirationTime("5m"));
    expect(await verifyAccessToken(withExp)).toBe(id);
    const noExp = await sign({ fid: family_id }, (jwt) => jwt.setSubject(id));
    expect(await verifyAccessToken(noExp)).toBeNull();
    const noFamily = await sign({}, (jwt) => jwt.setSubject(id).setExpirationTime("5m"));
    expect(await verifyAccessToken(noFamily)).toBeNull();
    const noSubject = await sign({ fid: family_id }, (jwt) => jwt.setExpirationTime("5m"));
    expect(await verifyAccessToken(noSubject)).toBeNull();
  });
});

describe("housekeeping is a plain call", () => {
  it("importing the token module starts no timer", () => {
    expect((globalThis as { studioHousekeeping?: unknown }).studioHousekeeping).toBeUndefined();
  });

  it("pruneQuietly drops expired tokens and old attempts, and never rejects", async () => {
    const { id } = await user();
    const now = new Date();
    await issueTokenPair(id, new Date(now.getTime() - 31 * 86_400_000));
    const live = await issueTokenPair(id, now);
    await db
      .insertInto("login_attempts")
      .values({ email: "pruned@example.com", client_address: "10.19.0.1", attempted_at: "2000-01-01T00:00:00.000Z" })
      .execute();
    await pruneQuietly(now);
    const rows = await db.selectFrom("refresh_tokens").select("token_hash").where("user_id", "=", id).execute();
    expect(rows).toEqual([{ token_hash: sha256(live.refresh_token) }]);
    expect(
      await db.selectFrom("login_attempts").select("id").where("client_address", "=", "10.19.0.1").execute(),
    ).toEqual([]);

    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(pruneQuietly(new Date(Number.NaN))).resolves.toBeUndefined();
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});

describe("userOfAccessToken: the token's user in one query", () => {
  it("is the user (id and email) while the family is live, then null once it is revoked", async () => {
    const created = await user();
    const pair = await issueTokenPair(created.id);
    expect(await userOfAccessToken(pair.access_token)).toEqual({
      id: created.id,
      email: created.email,
      language: null,
    });
    await revokeRefreshToken(pair.refresh_token);
    expect(await userOfAccessToken(pair.access_token)).toBeNull();
  });

  it("is null for a live family of another user, a tampered token, an expired one, or a deleted user", async () => {
    const [alice, bob] = await Promise.all([user(), user()]);
    const alicePair = await issueTokenPair(alice.id);
    await issueTokenPair(bob.id);
    const { family_id } = await db
      .selectFrom("refresh_tokens")
      .select("family_id")
      .where("token_hash", "=", sha256(alicePair.refresh_token))
      .executeTakeFirstOrThrow();
    // Alice's live family under Bob's id, signed with the real key: the family is not Bob's.
    const signed = (subject: string) =>
      new SignJWT({ fid: family_id })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer("creative-ai-studio")
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(accessKey());
    expect(await userOfAccessToken(await signed(alice.id))).toEqual({
      id: alice.id,
      email: alice.email,
      language: null,
    });
    const forged = await signed(bob.id);
    expect(await verifyAccessToken(forged)).toBeNull();
    expect(await userOfAccessToken(forged)).toBeNull();
    expect(await userOfAccessToken(alicePair.access_token.slice(0, -2) + "xx")).toBeNull();
    expect(await userOfAccessToken(alicePair.access_token, new Date(Date.now() + 60 * 60 * 1000))).toBeNull();

    await db.deleteFrom("refresh_tokens").where("user_id", "=", alice.id).execute();
    await db.deleteFrom("users").where("id", "=", alice.id).execute();
    expect(await userOfAccessToken(alicePair.access_token)).toBeNull();
  });

  it("a token seen before is still checked for time, family and tampering on every use", async () => {
    const created = await user();
    const pair = await issueTokenPair(created.id);
    expect(await userOfAccessToken(pair.access_token)).toEqual({
      id: created.id,
      email: created.email,
      language: null,
    });
    expect(await userOfAccessToken(pair.access_token)).toEqual({
      id: created.id,
      email: created.email,
      language: null,
    });
    // Remembered, yet past its expiry it is refused, and before it, still good.
    expect(await userOfAccessToken(pair.access_token, new Date(Date.now() + 60 * 60 * 1000))).toBeNull();
    expect(await userOfAccessToken(pair.access_token)).toEqual({
      id: created.id,
      email: created.email,
      language: null,
    });
    const [header, payload] = pair.access_token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const otherSubject = Buffer.from(JSON.stringify({ ...claims, sub: "someone-else" })).toString("base64url");
    expect(await userOfAccessToken(`${header}.${otherSubject}.${pair.access_token.split(".")[2]}`)).toBeNull();
    await revokeRefreshToken(pair.refresh_token);
    expect(await userOfAccessToken(pair.access_token)).toBeNull();
  });
});
