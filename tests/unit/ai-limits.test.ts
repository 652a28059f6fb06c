import { expect, it } from "vitest";
import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import {
  AI_SLOT_STALE_MS,
  beginAiRequest,
  countAiRequestsSince,
  finishAiRequest,
  heartbeatAiRequests,
  pruneAiRequests,
  type AiRequestStart,
} from "~/models/ai-usage.server";
import { acquireAiSlot, AI_LIMITED, withAiSlot } from "~/services/ai-limits.server";
import { describeOnEachEngine } from "../support/engines";
import { newUserId } from "../support/user-rows";

/**
 * Per-person AI limits (decision 0038) on both engines: many requests of one person racing never get more
 * than the per-minute count or the concurrency through, a slot whose instance died (stale heartbeat)
 * does not block the person, and other people's requests do not count. The PostgreSQL half runs as in
 * tests/unit/db-concurrency.test.ts (TEST_DATABASE_URL, or a throwaway cluster when PostgreSQL is installed).
 */
const allowed = (starts: AiRequestStart[]) =>
  starts.filter((start): start is Extract<AiRequestStart, { allowed: true }> => start.allowed);
const refused = (starts: AiRequestStart[]) =>
  starts.filter((start): start is Extract<AiRequestStart, { allowed: false }> => !start.allowed);
const rowsOf = async (userId: string) =>
  Number(
    (
      await db
        .selectFrom("ai_requests")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describeOnEachEngine("AI limits", () => {
  it("never lets racing requests exceed the per-minute count", async () => {
    for (let round = 0; round < 5; round++) {
      const userId = await newUserId();
      const now = new Date();
      const starts = await Promise.all(
        Array.from({ length: 30 }, () => beginAiRequest(userId, "chat", { perMinute: 7, concurrent: 1000 }, now)),
      );
      expect(allowed(starts)).toHaveLength(7);
      for (const refusal of refused(starts)) {
        expect(refusal).toMatchObject({ reason: "per_minute", limit: 7 });
        expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(59);
        expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(60);
      }
      // Refused requests are not recorded: the minute holds exactly the allowed ones.
      expect(await rowsOf(userId)).toBe(7);
      // Ending them frees no room in the minute; a minute later there is room again.
      for (const start of allowed(starts)) await finishAiRequest(userId, start.id);
      expect(
        (await beginAiRequest(userId, "chat", { perMinute: 7, concurrent: 1000 }, new Date(now.getTime() + 1000)))
          .allowed,
      ).toBe(false);
      const later = await beginAiRequest(
        userId,
        "chat",
        { perMinute: 7, concurrent: 1000 },
        new Date(now.getTime() + 61_000),
      );
      expect(later.allowed).toBe(true);
    }
  });

  it("never lets racing requests exceed the concurrency, and an ended one frees its slot", async () => {
    for (let round = 0; round < 5; round++) {
      const userId = await newUserId();
      const starts = await Promise.all(
        Array.from({ length: 20 }, () => beginAiRequest(userId, "image", { perMinute: 1000, concurrent: 2 })),
      );
      const running = allowed(starts);
      expect(running).toHaveLength(2);
      for (const refusal of refused(starts))
        expect(refusal).toMatchObject({ reason: "concurrent", limit: 2, retryAfterSeconds: expect.any(Number) });
      // Another round of racers while two run: none gets in.
      const more = await Promise.all(
        Array.from({ length: 10 }, () => beginAiRequest(userId, "speech", { perMinute: 1000, concurrent: 2 })),
      );
      expect(allowed(more)).toHaveLength(0);
      await finishAiRequest(userId, running[0].id);
      const afterOne = await Promise.all(
        Array.from({ length: 10 }, () => beginAiRequest(userId, "speech", { perMinute: 1000, concurrent: 2 })),
      );
      expect(allowed(afterOne)).toHaveLength(1);
    }
  });

  it("the two limits hold together under a mixed race of take-and-give-back", async () => {
    const userId = await newUserId();
    const limits = { perMinute: 12, concurrent: 3 };
    let inFlight = 0;
    let most = 0;
    let through = 0;
    await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const start = await beginAiRequest(userId, i % 2 ? "chat" : "sketch", limits);
        if (!start.allowed) return;
        through++;
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        await finishAiRequest(userId, start.id);
      }),
    );
    expect(most).toBeLessThanOrEqual(3);
    expect(through).toBeGreaterThan(0);
    expect(through).toBeLessThanOrEqual(12);
    expect(await countAiRequestsSince(userId, new Date(Date.now() - 60_000))).toBe(through);
  });

  it("a slot whose instance died (no heartbeat) stops blocking the person; a beating one holds", async () => {
    const userId = await newUserId();
    const limits = { perMinute: 1000, concurrent: 1 };
    const t0 = new Date();
    const held = await beginAiRequest(userId, "chat", limits, t0);
    expect(held.allowed).toBe(true);
    expect((await beginAiRequest(userId, "chat", limits, new Date(t0.getTime() + 1000))).allowed).toBe(false);
    // Beaten by its instance: still held past the staleness.
    const beatAt = new Date(t0.getTime() + AI_SLOT_STALE_MS - 1000);
    await heartbeatAiRequests(userId, [(held as { id: string }).id], beatAt);
    expect(
      (await beginAiRequest(userId, "chat", limits, new Date(t0.getTime() + AI_SLOT_STALE_MS + 1000))).allowed,
    ).toBe(false);
    // Its instance was killed: no more beats, and once stale it no longer counts.
    const afterDeath = await beginAiRequest(
      userId,
      "chat",
      limits,
      new Date(beatAt.getTime() + AI_SLOT_STALE_MS + 1000),
    );
    expect(afterDeath.allowed).toBe(true);
  });

  it("counts each person alone", async () => {
    const [alice, bob] = [await newUserId(), await newUserId()];
    const limits = { perMinute: 3, concurrent: 1000 };
    const starts = await Promise.all(
      [alice, bob].flatMap((userId) => Array.from({ length: 6 }, () => beginAiRequest(userId, "chat", limits))),
    );
    expect(allowed(starts.slice(0, 6))).toHaveLength(3);
    expect(allowed(starts.slice(6))).toHaveLength(3);
  });

  it("the service's slot: 429 with Retry-After and a detail saying when; freed when the work settles, failed or not", async () => {
    const userId = await newUserId();
    // The settings' defaults (AI_CONCURRENT_PER_PERSON unset): 2 at once.
    const first = await acquireAiSlot(userId, "chat");
    const second = await acquireAiSlot(userId, "chat");
    const refusal = await acquireAiSlot(userId, "chat").then(
      () => null,
      (error) => error,
    );
    expect(refusal).toMatchObject({
      status: 429,
      code: AI_LIMITED,
      options: { headers: { "Retry-After": expect.stringMatching(/^\d+$/) } },
    });
    expect(refusal.detail).toMatch(/at most 2 at a time\. Try again in \d+ seconds?\./);
    await first.release();
    await first.release();
    await expect(withAiSlot(userId, "chat", async () => "done")).resolves.toBe("done");
    await expect(withAiSlot(userId, "chat", async () => Promise.reject(new Error("provider down")))).rejects.toThrow(
      "provider down",
    );
    // Both settled and gave their slots back: one more fits beside `second`.
    const third = await acquireAiSlot(userId, "chat");
    await Promise.all([second.release(), third.release()]);
  });

  it("a refund un-counts the request (a video create over the active-job limit); other failures still count", async () => {
    const userId = await newUserId();
    const refusedByService = new DomainError(429, "over the service's own limit", { code: "own_limit" });
    const refundWhen = (error: unknown) => error instanceof DomainError && error.code === "own_limit";
    await expect(withAiSlot(userId, "video", () => Promise.reject(refusedByService), { refundWhen })).rejects.toBe(
      refusedByService,
    );
    expect(await rowsOf(userId)).toBe(0);
    await expect(
      withAiSlot(userId, "video", () => Promise.reject(new Error("provider down")), { refundWhen }),
    ).rejects.toThrow("provider down");
    await expect(withAiSlot(userId, "video", async () => "done", { refundWhen })).resolves.toBe("done");
    expect(await rowsOf(userId)).toBe(2);
    // A refund after the release (or a second one) changes nothing: the first end decides.
    const slot = await acquireAiSlot(userId, "video");
    await slot.release();
    await slot.refund();
    expect(await rowsOf(userId)).toBe(3);
  });

  it("the housekeeping prunes rows older than a day, and only those", async () => {
    const userId = await newUserId();
    const now = Date.now();
    await beginAiRequest(userId, "chat", { perMinute: 10, concurrent: 10 }, new Date(now - 25 * 60 * 60_000));
    await beginAiRequest(userId, "chat", { perMinute: 10, concurrent: 10 }, new Date(now - 60_000 * 5));
    expect(await rowsOf(userId)).toBe(2);
    await pruneAiRequests(new Date(now));
    expect(await rowsOf(userId)).toBe(1);
  });
});
