import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/ids.server";
import { loginWithPassword } from "~/models/accounts/credentials.server";
import { verifyPassword } from "~/models/accounts/password.server";
import { createUser } from "~/models/accounts/user.server";

// The hash queue's bound in time set far off (before the settings are parsed): on a loaded machine the
// default 1.5 s of work lets as few as 4 hashes wait, and a burst's other attempts would be answered
// "busy" (unchecked, not recorded) instead of meeting the account's cap. PASSWORD_HASH_QUEUE_MAX's 16
// may wait here however slow the machine (password-queue-slow.test.ts checks the bound in time).
vi.hoisted(() => {
  process.env.PASSWORD_HASH_QUEUE_SECONDS = "600";
});

// Every password check goes through this spy: a refused attempt must cost no hash at all.
vi.mock("~/models/accounts/password.server", async (importOriginal) => {
  const original = await importOriginal<typeof import("~/models/accounts/password.server")>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});
const hashes = vi.mocked(verifyPassword);

const email = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;
const reason = (result: Awaited<ReturnType<typeof loginWithPassword>>) => (result.ok ? "ok" : result.reason);

/** `count` failed logins from `address` a minute ago (LOGIN_MAX_FAILURES_PER_ADDRESS is 100 by default). */
async function failuresFrom(address: string, count: number) {
  const attempted_at = nowIso(new Date(Date.now() - 60_000));
  const rows = Array.from({ length: count }, () => ({ email: email("spray"), client_address: address, attempted_at }));
  await db.insertInto("login_attempts").values(rows).execute();
}

beforeEach(() => hashes.mockClear());

describe("an address over its failure budget is refused before any hash", () => {
  it("after 100 failures from an address, every attempt from it answers 429 without hashing, the right password too", async () => {
    const nat = "10.20.0.1";
    const colleague = email("colleague");
    await createUser(colleague, "right-password");
    await failuresFrom(nat, 100);

    for (const [who, password] of [
      [email("spray"), "guess-guess"],
      [colleague, "wrong-password"],
      [colleague, "right-password"],
    ]) {
      const refused = await loginWithPassword(who, password, nat);
      expect(refused).toMatchObject({ ok: false, reason: "throttled" });
      expect(!refused.ok && refused.reason === "throttled" && refused.retryAfterSeconds).toBeGreaterThan(800);
    }
    expect(hashes).not.toHaveBeenCalled();
    // The refusals were not failures: the address still has 100, the colleague's account none.
    expect(await db.selectFrom("login_attempts").select("id").where("client_address", "=", nat).execute()).toHaveLength(
      100,
    );
    // Another address is not affected; its attempt is checked (one hash).
    expect(reason(await loginWithPassword(colleague, "right-password", "10.20.0.2"))).toBe("ok");
    expect(hashes).toHaveBeenCalledTimes(1);
  });

  it("below the budget a correct password from the address always gets in", async () => {
    const nat = "10.23.0.1";
    const colleague = email("colleague");
    await createUser(colleague, "right-password");
    await failuresFrom(nat, 99);
    expect(reason(await loginWithPassword(colleague, "right-password", nat))).toBe("ok");
    expect(hashes).toHaveBeenCalledTimes(1);
  });

  it("concurrent guesses from one address cannot pass its budget: at most the remainder is hashed", async () => {
    const nat = "10.24.0.1";
    await failuresFrom(nat, 95);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => loginWithPassword(email("burst"), "guess-guess", nat)),
    );
    expect(results.filter((result) => reason(result) === "invalid").length).toBeLessThanOrEqual(5);
    expect(results.filter((result) => reason(result) === "throttled").length).toBeGreaterThanOrEqual(25);
    expect(hashes.mock.calls.length).toBeLessThanOrEqual(5);
    expect(
      (await db.selectFrom("login_attempts").select("id").where("client_address", "=", nat).execute()).length,
    ).toBeLessThanOrEqual(100);
  });

  it("loopback (this machine) is not counted against an address budget", async () => {
    await failuresFrom("127.0.0.1", 150);
    const local = email("local");
    await createUser(local, "right-password");
    expect(reason(await loginWithPassword(local, "right-password", "127.0.0.1"))).toBe("ok");
  });
});

describe("the per-account cap", () => {
  it("10 failures lock the account, the right password included, from any address, without hashing", async () => {
    const victim = email("victim");
    await createUser(victim, "right-password");
    for (let i = 0; i < 10; i++)
      expect(reason(await loginWithPassword(victim, "wrong-password", `10.21.0.${i + 1}`))).toBe("invalid");
    hashes.mockClear();
    expect(reason(await loginWithPassword(victim, "right-password", "10.21.0.1"))).toBe("throttled");
    expect(reason(await loginWithPassword(victim, "right-password", "10.21.1.1"))).toBe("throttled");
    expect(hashes).not.toHaveBeenCalled();
    // Only 10 guesses were checked against it.
    expect(await db.selectFrom("login_attempts").select("id").where("email", "=", victim).execute()).toHaveLength(10);
  });

  it("concurrent guesses cannot get past the account cap", async () => {
    const victim = email("burst");
    await createUser(victim, "right-password");
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => loginWithPassword(victim, "wrong-password", `10.22.0.${i + 1}`)),
    );
    // Whatever the timing, nobody gets in; an answer is a checked failure, a refusal, or the queue's busy.
    for (const result of burst) expect(["invalid", "throttled", "busy"]).toContain(reason(result));
    const recorded = (await db.selectFrom("login_attempts").select("id").where("email", "=", victim).execute()).length;
    expect(recorded).toBeLessThanOrEqual(10);
    expect(hashes.mock.calls.length).toBeLessThanOrEqual(10);
    // Failures one at a time up to the cap (none busy: nothing else hashes), then the right one is refused unhashed.
    for (let i = recorded; i < 10; i++)
      expect(reason(await loginWithPassword(victim, "wrong-password", `10.22.2.${i + 1}`))).toBe("invalid");
    hashes.mockClear();
    expect(reason(await loginWithPassword(victim, "right-password", "10.22.1.1"))).toBe("throttled");
    expect(hashes).not.toHaveBeenCalled();
  });
});
