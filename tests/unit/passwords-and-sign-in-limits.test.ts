import { describe, expect, it, vi } from "vitest";
import { db } from "~/lib/db/db.server";
import { loginWithPassword, throttledMessage } from "~/models/accounts/credentials.server";
import { credentialsSchema } from "~/common/account-rules";
import {
  beginLoginAttempt,
  beginRegistration,
  checkLoginThrottle,
  pruneLoginAttempts,
  pruneRegistrationAttempts,
} from "~/models/accounts/login-attempt.server";
import { hashPassword, passwordHashing, verifyPassword } from "~/models/accounts/password.server";
import { createUser, EmailTakenError } from "~/models/accounts/user.server";

// The hash queue's bound in time set far off (before the settings are parsed): on a loaded machine a
// hash is slow and the default 1.5 s of work lets as few as 4 wait, so most of a burst would be answered
// "busy" before its check and a cap kept by that alone would look kept. Here PASSWORD_HASH_QUEUE_MAX's
// 16 may wait however slow the machine, more than the 10 failures the account allows, so only the count
// can stop a burst (password-queue-slow.test.ts checks the bound in time).
vi.hoisted(() => {
  process.env.PASSWORD_HASH_QUEUE_SECONDS = "600";
});

const email = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;

describe("passwords", () => {
  it("are hashed with argon2id at OWASP's cost and verified", async () => {
    const hash = await hashPassword("s3cret-password");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, "s3cret-password")).toBe(true);
    expect(await verifyPassword(hash, "wrong-password")).toBe(false);
    expect(await verifyPassword("not a hash", "anything")).toBe(false);
  });

  it("hash a few at a time (a burst of sign-ins leaves a core for every other request), each still right", async () => {
    const { slots } = passwordHashing();
    const burst = Array.from({ length: slots + 3 }, (_, i) => hashPassword(`burst password ${i}`));
    // Right after the burst starts, only `slots` hashes run; the rest wait their turn.
    expect(passwordHashing().running).toBe(slots);
    expect(passwordHashing().queued).toBe(3);
    const hashes = await Promise.all(burst);
    expect(passwordHashing()).toMatchObject({ running: 0, queued: 0, slots });
    expect(await Promise.all(hashes.map((hash, i) => verifyPassword(hash, `burst password ${i}`)))).toEqual(
      hashes.map(() => true),
    );
  });

  it("never store the plain password", async () => {
    const address = email("plain");
    await createUser(address, "plain-text-password");
    const row = await db.selectFrom("users").selectAll().where("email", "=", address).executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain("plain-text-password");
  });
});

describe("credentials", () => {
  it("normalise the email and bound both fields", () => {
    expect(credentialsSchema.parse({ email: "  Mixed@Example.COM ", password: "12345678" }).email).toBe(
      "mixed@example.com",
    );
    expect(credentialsSchema.safeParse({ email: "not-an-email", password: "12345678" }).success).toBe(false);
    expect(credentialsSchema.safeParse({ email: "a@b.co", password: "1234567" }).error?.issues[0].message).toBe(
      "Password must be at least 8 characters",
    );
    expect(credentialsSchema.safeParse({ email: `${"a".repeat(250)}@b.co`, password: "12345678" }).success).toBe(false);
    expect(credentialsSchema.safeParse({ email: "a@b.co", password: "x".repeat(257) }).success).toBe(false);
  });

  it("an email registers once", async () => {
    const address = email("once");
    await createUser(address, "password123");
    await expect(createUser(address, "password456")).rejects.toBeInstanceOf(EmailTakenError);
  });
});

describe("login rate limit", () => {
  it("blocks an account after 10 failures in 15 minutes, then lets it go", async () => {
    const address = email("limited");
    await createUser(address, "right-password");
    for (let i = 0; i < 10; i++) {
      expect(await loginWithPassword(address, "wrong-password", `10.1.0.${i}`)).toEqual({
        ok: false,
        reason: "invalid",
      });
    }
    const blocked = await loginWithPassword(address, "right-password", "10.1.0.99");
    expect(blocked.ok).toBe(false);
    expect(blocked.ok === false && blocked.reason).toBe("throttled");
    const later = new Date(Date.now() + 16 * 60_000);
    expect((await checkLoginThrottle(address, "10.1.0.99", later)).blocked).toBe(false);
  });

  // An address over its budget once throttled only its failures (the right password still got in,
  // after its hash); now every attempt from it is refused before any hash, with a budget of 100 failures
  // (generous for a crowd behind one address), so a flood from one address costs no hashing at all.
  it("refuses a client address after 100 failures across accounts, before anything is checked", async () => {
    const clientAddress = "10.2.0.1";
    // A started attempt that is never marked successful is a failure.
    for (let i = 0; i < 100; i++) {
      expect(await beginLoginAttempt(email("spray"), clientAddress)).toMatchObject({ allowed: true });
    }
    const refused = await beginLoginAttempt(email("fresh"), clientAddress);
    expect(refused).toMatchObject({ allowed: false, refusedBy: "address" });
    expect(!refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(800);
    const throttle = await checkLoginThrottle(email("fresh"), clientAddress);
    expect(throttle.blocked).toBe(true);
    expect(throttle.retryAfterSeconds).toBeGreaterThan(800);
    expect(await checkLoginThrottle(email("fresh"), "10.2.0.2")).toMatchObject({ blocked: false });
  });

  it("successful logins do not count and clear the account's failures", async () => {
    const address = email("ok");
    await createUser(address, "right-password");
    for (let i = 0; i < 9; i++) await loginWithPassword(address, "wrong-password", "10.3.0.1");
    for (let i = 0; i < 5; i++) expect((await loginWithPassword(address, "right-password", "10.3.0.1")).ok).toBe(true);
    for (let i = 0; i < 9; i++) await loginWithPassword(address, "wrong-password", "10.3.0.1");
    expect((await loginWithPassword(address, "right-password", "10.3.0.1")).ok).toBe(true);
  });

  it("concurrent wrong passwords cannot get past the limit (the attempt is recorded before the check)", async () => {
    const address = email("race");
    await createUser(address, "right-password");
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => loginWithPassword(address, "wrong-password", `10.4.0.${i}`)),
    );
    const reasons = results.map((result) => (result.ok ? "ok" : result.reason));
    // Whatever the timing: nobody gets in, and each answer is a checked failure, a refusal by the count,
    // or the hash queue's "busy" (which checked nothing and records nothing).
    for (const reason of reasons) expect(["invalid", "throttled", "busy"]).toContain(reason);
    const checked = reasons.filter((reason) => reason === "invalid").length;
    // Attempts that overlap count against each other, so a burst may be refused earlier, never later.
    expect(checked).toBeLessThanOrEqual(10);
    // Refused and busy attempts are not failures: only the checked ones are on record.
    const rows = await db.selectFrom("login_attempts").select("id").where("email", "=", address).execute();
    expect(rows).toHaveLength(checked);
    // The throttle engages once 10 failures are on record: one at a time (never busy: nothing else is
    // hashing), wrong passwords are checked up to 10, and then even the right one is refused unchecked.
    for (let i = checked; i < 10; i++) {
      expect(await loginWithPassword(address, "wrong-password", `10.4.1.${i}`)).toEqual({
        ok: false,
        reason: "invalid",
      });
    }
    expect(await loginWithPassword(address, "right-password", "10.4.1.99")).toMatchObject({
      ok: false,
      reason: "throttled",
    });
  });

  it("a successful login removes its own pending attempt", async () => {
    const address = email("pending");
    await createUser(address, "right-password");
    expect((await loginWithPassword(address, "right-password", "10.5.0.1")).ok).toBe(true);
    expect(await db.selectFrom("login_attempts").select("id").where("email", "=", address).execute()).toEqual([]);
  });

  it("says when to try again", () => {
    expect(throttledMessage(61)).toBe("Too many failed login attempts. Try again in 2 minutes.");
    expect(throttledMessage(30)).toBe("Too many failed login attempts. Try again in 1 minute.");
  });
});

describe("registration rate limit", () => {
  it("allows 20 registrations per address per hour, then refuses with a retry time", async () => {
    const clientAddress = "10.6.0.1";
    const start = new Date();
    for (let i = 0; i < 20; i++) expect(await beginRegistration(clientAddress, start)).toMatchObject({ allowed: true });
    const refused = await beginRegistration(clientAddress, start);
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.retryAfterSeconds).toBe(3600);
    expect(await beginRegistration("10.6.0.2", start)).toMatchObject({ allowed: true });
    expect(await beginRegistration(clientAddress, new Date(start.getTime() + 61 * 60_000))).toMatchObject({
      allowed: true,
    });
  });

  it("concurrent registrations from one address cannot exceed the limit", async () => {
    const results = await Promise.all(Array.from({ length: 30 }, () => beginRegistration("10.7.0.1")));
    expect(results.filter((result) => result.allowed).length).toBeLessThanOrEqual(20);
  });

  it("does not count this machine's own loopback addresses", async () => {
    for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      for (let i = 0; i < 25; i++) expect((await beginRegistration(address)).allowed).toBe(true);
    }
  });
});

describe("housekeeping", () => {
  it("prunes login and registration attempts older than their windows, keeps recent ones", async () => {
    const now = new Date();
    const old = new Date(now.getTime() - 2 * 3600_000);
    const oldEmail = email("old");
    const recentEmail = email("recent");
    await beginLoginAttempt(oldEmail, "10.8.0.1", old);
    await beginLoginAttempt(recentEmail, "10.8.0.1", now);
    await beginRegistration("10.8.0.2", old);
    await beginRegistration("10.8.0.3", new Date(now.getTime() - 30 * 60_000));
    await pruneLoginAttempts(now);
    await pruneRegistrationAttempts(now);
    const emails = (
      await db.selectFrom("login_attempts").select("email").where("email", "in", [oldEmail, recentEmail]).execute()
    ).map((r) => r.email);
    expect(emails).toEqual([recentEmail]);
    const addresses = (
      await db
        .selectFrom("registration_attempts")
        .select("client_address")
        .where("client_address", "like", "10.8.0.%")
        .execute()
    ).map((r) => r.client_address);
    expect(addresses).toEqual(["10.8.0.3"]);
  });
});
