import { describe, expect, it, vi } from "vitest";
import { hashPassword, passwordHashing, PasswordHashingBusy } from "~/models/accounts/password.server";

// argon2 made slow (as on a loaded machine): 250 ms a hash.
vi.mock("@node-rs/argon2", () => ({
  hash: (password: string) => new Promise<string>((resolve) => setTimeout(() => resolve(`slow:${password}`), 250)),
  verify: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 250)),
}));

describe("the hash queue holds about a second and a half of work", () => {
  it("hashes waiting when hashing turns slow: the newest past the new bound are refused (503), the oldest kept", async () => {
    const { slots } = passwordHashing();
    expect(passwordHashing().queueMax).toBe(16);
    const burst = Array.from({ length: slots + 16 }, (_, i) =>
      hashPassword(`burst ${i}`, "first").then(
        () => "hashed",
        (error: unknown) => error,
      ),
    );
    expect(passwordHashing().queued).toBe(16);
    const results = await Promise.all(burst);
    const hashed = results.filter((result) => result === "hashed").length;
    expect(hashed).toBeLessThan(slots + 16);
    // Those kept are the first to come, the refused ones the last.
    expect(results.slice(0, hashed).every((result) => result === "hashed")).toBe(true);
    expect(
      results.slice(hashed).every((result) => result instanceof PasswordHashingBusy && result.status === 503),
    ).toBe(true);
  });

  it("when hashes get slow, fewer may wait: the bound follows the recent time per hash", async () => {
    const { slots } = passwordHashing();
    // Ten slow hashes, one after another: the recent time per hash moves towards 250 ms.
    for (let i = 0; i < 10; i++) await hashPassword(`slow ${i}`, "first");
    const { queueMax } = passwordHashing();
    expect(queueMax).toBeLessThanOrEqual(6 * slots);
    expect(queueMax).toBeLessThan(16);
    const burst = Array.from({ length: slots + 16 }, (_, i) =>
      hashPassword(`burst ${i}`, "first").then(
        () => "hashed",
        (error: unknown) => error,
      ),
    );
    const results = await Promise.all(burst);
    expect(results.filter((result) => result === "hashed")).toHaveLength(slots + queueMax);
    const refused = results.filter((result) => result instanceof PasswordHashingBusy);
    expect(refused).toHaveLength(16 - queueMax);
    // Retry-After says when the queue will have drained, in whole seconds.
    expect(Number(refused[0].options.headers?.["Retry-After"])).toBeGreaterThanOrEqual(1);
  });
});
