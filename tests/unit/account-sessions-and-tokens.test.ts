import { describe, expect, it } from "vitest";
import { db } from "~/lib/db/db.server";
import { deviceLabel } from "~/lib/device-label";
import { newId, nowIso, sha256 } from "~/lib/db/ids.server";
import { beginAiRequest } from "~/models/ai-usage.server";
import {
  API_TOKENS_MAX,
  apiTokenNameSchema,
  createApiToken,
  listApiTokens,
  revokeApiToken,
  userOfApiToken,
} from "~/models/accounts/api-token.server";
import { verifyPassword } from "~/models/accounts/password.server";
import {
  listSessions,
  pruneEndedSessions,
  replacePasswordEndingOtherSessions,
  revokeOtherSessions,
  revokeSession,
  touchSession,
} from "~/models/accounts/sessions.server";
import { issueTokenPair } from "~/models/accounts/token-pair.server";
import { pruneStaleRecords } from "~/services/operators/housekeeping.server";
import { sessionOfAccessToken, userOfAccessToken } from "~/models/accounts/access-token.server";
import { setAiDailyLimit, setStorageQuota } from "~/models/operators/operator.server";
import { createUser } from "~/models/accounts/user.server";
import { accountUsage, changePassword } from "~/services/accounts/account.server";
import { describeOnEachEngine } from "../support/engines";

/**
 * The account's models (decision 0047) on both engines: sessions (one per token family, named and dated,
 * revoked in the database), personal API tokens (only their hash stored, at most API_TOKENS_MAX under
 * races), the password change that ends every other session, and the usage read.
 */
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PASSWORD = "password123";

async function person() {
  return createUser(`account-${newId()}@example.com`, PASSWORD, "first");
}

async function familyOf(accessToken: string) {
  const session = await sessionOfAccessToken(accessToken);
  if (!session) throw new Error("not a live token");
  return session.sessionId;
}

describeOnEachEngine("account models", () => {
  it("a sign-in is a session with the device of its User-Agent, live while its tokens are", async () => {
    const user = await person();
    const now = new Date();
    const pair = await issueTokenPair(user.id, now, CHROME);
    const sessionId = await familyOf(pair.access_token);
    expect(await listSessions(user.id)).toEqual([
      { id: sessionId, device: "Chrome on Linux", created_at: nowIso(now), last_used_at: nowIso(now) },
    ]);
    await db
      .updateTable("refresh_tokens")
      .set({ expires_at: nowIso(new Date(now.getTime() - 1000)) })
      .where("family_id", "=", sessionId)
      .execute();
    expect(await listSessions(user.id)).toEqual([]);
  });

  it("moves last used at most once a minute per session", async () => {
    const user = await person();
    const start = new Date(Date.now() - 10 * 60_000);
    const pair = await issueTokenPair(user.id, start, CHROME);
    const sessionId = await familyOf(pair.access_token);
    const lastUsed = async () =>
      (await db.selectFrom("sessions").select("last_used_at").where("id", "=", sessionId).executeTakeFirstOrThrow())
        .last_used_at;
    // The sign-in above was ten minutes ago; the check of its token just now moved it.
    const moved = await lastUsed();
    expect(moved > nowIso(start)).toBe(true);
    const within = new Date(Date.parse(moved) + 30_000);
    await touchSession(sessionId, within);
    expect(await lastUsed()).toBe(moved);
    const later = new Date(Date.parse(moved) + 61_000);
    await touchSession(sessionId, later);
    expect(await lastUsed()).toBe(nowIso(later));
  });

  it("revoking a session ends its tokens at once and only for its person", async () => {
    const owner = await person();
    const other = await person();
    const laptop = await issueTokenPair(owner.id);
    const phone = await issueTokenPair(owner.id);
    const laptopId = await familyOf(laptop.access_token);
    expect(await revokeSession(other.id, laptopId)).toBe(false);
    expect(await userOfAccessToken(laptop.access_token)).not.toBeNull();
    expect(await revokeSession(owner.id, laptopId)).toBe(true);
    expect(await userOfAccessToken(laptop.access_token)).toBeNull();
    expect(await userOfAccessToken(phone.access_token)).not.toBeNull();
    expect(await revokeSession(owner.id, laptopId)).toBe(false);
    expect((await listSessions(owner.id)).map((session) => session.id)).toEqual([await familyOf(phone.access_token)]);
  });

  it("revoking the others keeps the one asking and no other person's", async () => {
    const owner = await person();
    const other = await person();
    const keep = await issueTokenPair(owner.id);
    const ended = [await issueTokenPair(owner.id), await issueTokenPair(owner.id)];
    const stranger = await issueTokenPair(other.id);
    expect(await revokeOtherSessions(owner.id, await familyOf(keep.access_token))).toBe(2);
    expect(await userOfAccessToken(keep.access_token)).not.toBeNull();
    for (const pair of ended) expect(await userOfAccessToken(pair.access_token)).toBeNull();
    expect(await userOfAccessToken(stranger.access_token)).not.toBeNull();
    expect(await revokeOtherSessions(owner.id, null)).toBe(1);
    expect(await userOfAccessToken(keep.access_token)).toBeNull();
  });

  it("a password change stores the new hash and ends every other session in one go", async () => {
    const user = await person();
    const keep = await issueTokenPair(user.id);
    const other = await issueTokenPair(user.id);
    const sessionId = await familyOf(keep.access_token);
    const result = await changePassword(
      { user, sessionId },
      { current_password: PASSWORD, new_password: "another password" },
      "127.0.0.1",
    );
    expect(result).toEqual({ sessionsEnded: 1, tokensRevoked: 0, sharesRevoked: 0 });
    const { password_hash } = await db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(password_hash, "another password")).toBe(true);
    expect(await userOfAccessToken(keep.access_token)).not.toBeNull();
    expect(await userOfAccessToken(other.access_token)).toBeNull();
    await expect(
      changePassword(
        { user, sessionId },
        { current_password: PASSWORD, new_password: "a third password" },
        "127.0.0.1",
      ),
    ).rejects.toMatchObject({
      status: 400,
      code: "current_password",
    });
    await expect(
      changePassword({ user, sessionId }, { current_password: "another password", new_password: "short" }, "127.0.0.1"),
    ).rejects.toMatchObject({
      status: 400,
      code: "new_password",
      detail: "Password must be at least 8 characters",
    });
    expect(await replacePasswordEndingOtherSessions(user.id, password_hash, null)).toBe(1);
    expect(await userOfAccessToken(keep.access_token)).toBeNull();
  });

  it("housekeeping forgets a session none of whose tokens is left", async () => {
    const user = await person();
    const past = new Date(Date.now() - 60 * 86_400_000);
    const old = await issueTokenPair(user.id, past);
    const fresh = await issueTokenPair(user.id);
    const oldId = (
      await db
        .selectFrom("refresh_tokens")
        .select("family_id")
        .where("token_hash", "=", sha256(old.refresh_token))
        .executeTakeFirstOrThrow()
    ).family_id;
    await pruneStaleRecords();
    await pruneEndedSessions();
    const ids = (await db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).map(
      (row) => row.id,
    );
    expect(ids).toEqual([await familyOf(fresh.access_token)]);
    expect(ids).not.toContain(oldId);
  });

  it("stores a personal API token only as its SHA-256, finds its person by it, and forgets it when revoked", async () => {
    const user = await person();
    const other = await person();
    const made = await createApiToken(user.id, "Script");
    expect(made.token).toMatch(/^cas_[\w-]{43}$/);
    const rows = await db.selectFrom("api_tokens").selectAll().where("user_id", "=", user.id).execute();
    expect(rows).toEqual([
      {
        id: made.id,
        user_id: user.id,
        name: "Script",
        token_hash: sha256(made.token),
        created_at: made.created_at,
        last_used_at: null,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(made.token.slice(4));
    expect(await listApiTokens(user.id)).toEqual([
      { id: made.id, name: "Script", created_at: made.created_at, last_used_at: null },
    ]);
    expect(await userOfApiToken(made.token)).toEqual({ id: user.id, email: user.email });
    expect((await listApiTokens(user.id))[0].last_used_at).toEqual(expect.any(String));
    expect(await userOfApiToken(`${made.token}x`)).toBeNull();
    expect(await userOfApiToken(made.token.slice(4))).toBeNull();
    expect(await revokeApiToken(other.id, made.id)).toBe(false);
    expect(await userOfApiToken(made.token)).not.toBeNull();
    expect(await revokeApiToken(user.id, made.id)).toBe(true);
    expect(await userOfApiToken(made.token)).toBeNull();
    expect(await listApiTokens(user.id)).toEqual([]);
  });

  it("never lets racing creations pass the per-person limit", async () => {
    const user = await person();
    const results = await Promise.allSettled(
      Array.from({ length: API_TOKENS_MAX + 10 }, (_, index) => createApiToken(user.id, `token ${index}`)),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(API_TOKENS_MAX);
    for (const result of results.filter((result) => result.status === "rejected"))
      expect(result.reason).toMatchObject({ status: 409 });
    expect(await listApiTokens(user.id)).toHaveLength(API_TOKENS_MAX);
  });

  it("reads the usage: storage against the quota and AI requests since midnight UTC", async () => {
    const user = await person();
    const now = new Date();
    const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    await beginAiRequest(user.id, "chat", { perMinute: 100, concurrent: 100 }, now);
    await beginAiRequest(user.id, "image", { perMinute: 100, concurrent: 100 }, now);
    // Yesterday's request does not count today.
    await db
      .insertInto("ai_requests")
      .values({
        id: newId(),
        user_id: user.id,
        kind: "chat",
        started_at: nowIso(new Date(midnight.getTime() - 1000)),
        heartbeat_at: null,
        finished_at: null,
      })
      .execute();
    await db.updateTable("users").set({ media_bytes: 2048, text_bytes: 100 }).where("id", "=", user.id).execute();
    const usage = await accountUsage(user.id, now);
    expect(usage.ai).toMatchObject({
      requests_today: 2,
      per_minute_limit: expect.any(Number),
      concurrent_limit: expect.any(Number),
      daily_limit: null,
    });
    expect(usage.storage).toMatchObject({ text_bytes: 100, quota_bytes: expect.any(Number) });
    expect(usage.storage.quota_bytes).toBeGreaterThan(0);
  });

  it("reads the person's own limits once the operator sets them (npm run admin -- quota / ai-limit)", async () => {
    const user = await person();
    await setStorageQuota(user.id, 5 * 1024 * 1024);
    await setAiDailyLimit(user.id, 40);
    const usage = await accountUsage(user.id);
    expect(usage.storage.quota_bytes).toBe(5 * 1024 * 1024);
    expect(usage.ai.daily_limit).toBe(40);
    await setAiDailyLimit(user.id, 0);
    expect((await accountUsage(user.id)).ai.daily_limit).toBeNull();
  });
});

describe("a token's name", () => {
  it("is trimmed, shown as one line without bidirectional controls, 1 to 100 characters", () => {
    expect(apiTokenNameSchema.parse("  Backup\u202E script\n ")).toBe("Backup script");
    expect(apiTokenNameSchema.safeParse(" \u202E ").error?.issues[0].message).toBe("Enter a name for the token");
    expect(apiTokenNameSchema.safeParse("x".repeat(101)).error?.issues[0].message).toBe(
      "A token's name must be at most 100 characters",
    );
    expect(apiTokenNameSchema.parse("x".repeat(100))).toHaveLength(100);
  });
});

describe("the device of a sign-in", () => {
  it.each([
    [CHROME, "Chrome on Linux"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Windows"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      "Safari on iPhone",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge on macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
      "Chrome on Linux",
    ],
    ["curl/8.5.0", "curl"],
    ["node", "Node.js"],
    ["MyTool/1.2", "MyTool"],
    ["", "Unknown device"],
    [null, "Unknown device"],
    ["???", "Unknown device"],
  ])("%s -> %s", (agent, label) => {
    expect(deviceLabel(agent)).toBe(label);
  });
});
