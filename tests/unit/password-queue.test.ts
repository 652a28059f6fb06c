import { describe, expect, it, vi } from "vitest";
import { db } from "~/lib/db/db.server";
import { loginWithPassword, registerWithPassword } from "~/models/accounts/credentials.server";
import { hashPassword, passwordHashing, PasswordHashingBusy } from "~/models/accounts/password.server";
import { createUser } from "~/models/accounts/user.server";

// The queue's bound in time set far off (before the settings are parsed), so PASSWORD_HASH_QUEUE_MAX
// alone decides here however slow a loaded machine hashes; password-queue-slow.test.ts checks the bound in time.
vi.hoisted(() => {
  process.env.PASSWORD_HASH_QUEUE_SECONDS = "600";
});

const email = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => "hashed" as const,
    (error: unknown) => error,
  );

/** Takes every hashing thread and fills the queue with `first` hashes; resolves when they are done. */
function fillQueue() {
  const { slots, queueMax } = passwordHashing();
  return Promise.all(Array.from({ length: slots + queueMax }, (_, i) => hashPassword(`filler ${i}`, "first")));
}

describe("the password hash queue is bounded (PASSWORD_HASH_QUEUE_MAX, default 16, and about 1.5 s of work)", () => {
  it("beyond it a hash is refused at once: 503 with Retry-After, and the queue never grows past it", async () => {
    const { slots, queueMax } = passwordHashing();
    expect(queueMax).toBe(16);
    const burst = Array.from({ length: slots + queueMax + 3 }, (_, i) => outcome(hashPassword(`burst ${i}`, "first")));
    expect(passwordHashing()).toMatchObject({ running: slots, queued: queueMax });
    const results = await Promise.all(burst);
    const refused = results.filter((result) => result instanceof PasswordHashingBusy);
    expect(refused).toHaveLength(3);
    expect(results.filter((result) => result === "hashed")).toHaveLength(slots + queueMax);
    for (const error of refused) {
      expect(error.status).toBe(503);
      expect(Number(error.options.headers?.["Retry-After"])).toBeGreaterThanOrEqual(1);
      expect(error.detail).toMatch(/^The server is busy checking passwords\. Please try again in \d+ seconds?\.$/);
    }
    expect(passwordHashing()).toMatchObject({ running: 0, queued: 0 });
  });

  it("`later` hashes (an address that failed already, a registration) take only half of the queue, and `first` ones go ahead of them", async () => {
    const { slots, queueMax } = passwordHashing();
    const done: string[] = [];
    const track = (name: string, promise: Promise<unknown>) => outcome(promise.then(() => done.push(name)));
    const running = Array.from({ length: slots }, (_, i) =>
      track(`running ${i}`, hashPassword(`running ${i}`, "first")),
    );
    const later = Array.from({ length: Math.ceil(queueMax / 2) }, (_, i) =>
      track(`later ${i}`, hashPassword(`later ${i}`, "later")),
    );
    const refusedLater = await outcome(hashPassword("one later too many", "later"));
    expect(refusedLater).toBeInstanceOf(PasswordHashingBusy);
    const first = track("first", hashPassword("a newcomer's login", "first"));
    await Promise.all([...running, ...later, first]);
    // The newcomer's hash started as soon as a thread was free, before every waiting `later` one.
    expect(done.indexOf("first")).toBeLessThanOrEqual(slots);
  });

  it("an address that tried lately waits behind newcomers, even when all its attempts were refused 503 (nothing recorded)", async () => {
    const person = email("newcomer");
    await createUser(person, "right-password");
    const { slots, queueMax } = passwordHashing();
    // The flooder's first attempt meets a full queue: 503, and no row is left to say it tried.
    const full = fillQueue();
    expect(await loginWithPassword(email("flood"), "guess-guess", "10.31.0.1")).toMatchObject({ reason: "busy" });
    await full;
    // Every thread busy and the `later` half of the queue taken: the flooder is refused at once, before
    // anything is written; a newcomer's login still finds room, and gets in.
    const running = Array.from({ length: slots }, (_, i) => hashPassword(`running ${i}`, "first"));
    const later = Array.from({ length: Math.ceil(queueMax / 2) }, (_, i) => hashPassword(`later ${i}`, "later"));
    expect(await loginWithPassword(email("flood"), "guess-guess", "10.31.0.1")).toMatchObject({ reason: "busy" });
    expect(
      await db.selectFrom("login_attempts").select("id").where("client_address", "=", "10.31.0.1").execute(),
    ).toHaveLength(0);
    expect((await loginWithPassword(person, "right-password", "10.31.0.2")).ok).toBe(true);
    await Promise.all([...running, ...later]);
  });

  it("a login refused by a full queue answers busy and is not counted as a failure; a registration the same", async () => {
    const person = email("busy");
    await createUser(person, "right-password");
    const filled = fillQueue();
    const login = await loginWithPassword(person, "right-password", "10.30.0.1");
    expect(login).toMatchObject({ ok: false, reason: "busy" });
    expect(!login.ok && login.reason === "busy" && login.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    const registration = await registerWithPassword(email("busy-register"), "right-password", "10.30.0.2");
    expect(registration).toMatchObject({ ok: false, reason: "busy" });
    await filled;
    expect(await db.selectFrom("login_attempts").select("id").where("email", "=", person).execute()).toHaveLength(0);
    expect(
      await db.selectFrom("registration_attempts").select("id").where("client_address", "=", "10.30.0.2").execute(),
    ).toHaveLength(0);
    // Once the queue has room the same login gets in.
    expect((await loginWithPassword(person, "right-password", "10.30.0.1")).ok).toBe(true);
  });
});
