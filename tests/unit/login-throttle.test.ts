import { describe, expect, it } from "vitest";
import { db } from "~/lib/db.server";
import { loginWithPassword } from "~/models/auth.server";
import { createUser } from "~/models/user.server";

const email = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;
const reason = (result: Awaited<ReturnType<typeof loginWithPassword>>) => (result.ok ? "ok" : result.reason);

describe("one address's failures do not lock everyone behind it out", () => {
  it("after 50 failures from an address, a correct password from it still gets in; failures from it answer 429", async () => {
    const nat = "10.20.0.1";
    const colleague = email("colleague");
    await createUser(colleague, "right-password");
    // Someone behind the same NAT guesses at unknown accounts.
    for (let i = 0; i < 50; i++) expect(reason(await loginWithPassword(email("spray"), "guess-guess", nat))).toBe("invalid");

    expect(reason(await loginWithPassword(colleague, "right-password", nat))).toBe("ok");
    // Guesses from that address keep being refused, for unknown and known accounts alike (no enumeration).
    const unknown = await loginWithPassword(email("spray"), "guess-guess", nat);
    expect(unknown).toMatchObject({ ok: false, reason: "throttled" });
    expect(!unknown.ok && unknown.reason === "throttled" && unknown.retryAfterSeconds).toBeGreaterThan(800);
    expect(reason(await loginWithPassword(colleague, "wrong-password", nat))).toBe("throttled");
    // And the colleague still gets in afterwards: their account is not locked.
    expect(reason(await loginWithPassword(colleague, "right-password", nat))).toBe("ok");
    // Another address is not affected at all.
    expect(reason(await loginWithPassword(email("elsewhere"), "guess-guess", "10.20.0.2"))).toBe("invalid");
  });

  it("the per-account cap still holds from a throttled address: 10 failures lock the account, right password included", async () => {
    const nat = "10.21.0.1";
    for (let i = 0; i < 50; i++) await loginWithPassword(email("spray"), "guess-guess", nat);
    const victim = email("victim");
    await createUser(victim, "right-password");
    for (let i = 0; i < 10; i++) expect(reason(await loginWithPassword(victim, "wrong-password", nat))).toBe("throttled");
    expect(reason(await loginWithPassword(victim, "right-password", nat))).toBe("throttled");
    expect(reason(await loginWithPassword(victim, "right-password", "10.21.0.2"))).toBe("throttled");
    // Only 10 guesses were checked against it.
    expect(await db.selectFrom("login_attempts").select("id").where("email", "=", victim).execute()).toHaveLength(10);
  });

  it("concurrent guesses from a throttled address cannot get past the account cap", async () => {
    const nat = "10.22.0.1";
    for (let i = 0; i < 50; i++) await loginWithPassword(email("spray"), "guess-guess", nat);
    const victim = email("burst");
    await createUser(victim, "right-password");
    await Promise.all(Array.from({ length: 30 }, () => loginWithPassword(victim, "wrong-password", nat)));
    expect((await db.selectFrom("login_attempts").select("id").where("email", "=", victim).execute()).length).toBeLessThanOrEqual(10);
    expect(reason(await loginWithPassword(victim, "right-password", "10.22.0.2"))).toBe("throttled");
  });
});
