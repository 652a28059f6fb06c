import { describe, expect, it } from "vitest";
import { db } from "~/lib/db.server";
import { loginWithPassword, throttledMessage } from "~/models/auth.server";
import { credentialsSchema } from "~/models/credentials";
import { checkLoginThrottle, recordFailedLogin } from "~/models/login-attempt.server";
import { hashPassword, verifyPassword } from "~/models/password.server";
import { createUser, EmailTakenError } from "~/models/user.server";

const email = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;

describe("passwords", () => {
  it("are hashed with argon2id at OWASP's cost and verified", async () => {
    const hash = await hashPassword("s3cret-password");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, "s3cret-password")).toBe(true);
    expect(await verifyPassword(hash, "wrong-password")).toBe(false);
    expect(await verifyPassword("not a hash", "anything")).toBe(false);
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
    expect(credentialsSchema.parse({ email: "  Mixed@Example.COM ", password: "12345678" }).email).toBe("mixed@example.com");
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
      expect(await loginWithPassword(address, "wrong-password", `10.1.0.${i}`)).toEqual({ ok: false, reason: "invalid" });
    }
    const blocked = await loginWithPassword(address, "right-password", "10.1.0.99");
    expect(blocked.ok).toBe(false);
    expect(blocked.ok === false && blocked.reason).toBe("throttled");
    const later = new Date(Date.now() + 16 * 60_000);
    expect((await checkLoginThrottle(address, "10.1.0.99", later)).blocked).toBe(false);
  });

  it("blocks a client address after 50 failures across accounts", async () => {
    const clientAddress = "10.2.0.1";
    for (let i = 0; i < 50; i++) await recordFailedLogin(email("spray"), clientAddress);
    const throttle = await checkLoginThrottle(email("fresh"), clientAddress);
    expect(throttle.blocked).toBe(true);
    expect(throttle.retryAfterSeconds).toBeGreaterThan(800);
    expect((await checkLoginThrottle(email("fresh"), "10.2.0.2")).blocked).toBe(false);
  });

  it("successful logins do not count and clear the account's failures", async () => {
    const address = email("ok");
    await createUser(address, "right-password");
    for (let i = 0; i < 9; i++) await loginWithPassword(address, "wrong-password", "10.3.0.1");
    for (let i = 0; i < 5; i++) expect((await loginWithPassword(address, "right-password", "10.3.0.1")).ok).toBe(true);
    for (let i = 0; i < 9; i++) await loginWithPassword(address, "wrong-password", "10.3.0.1");
    expect((await loginWithPassword(address, "right-password", "10.3.0.1")).ok).toBe(true);
  });

  it("says when to try again", () => {
    expect(throttledMessage(61)).toBe("Too many failed login attempts. Try again in 2 minutes.");
    expect(throttledMessage(30)).toBe("Too many failed login attempts. Try again in 1 minute.");
  });
});
