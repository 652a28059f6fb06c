import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { parseSettings, SettingsError } from "~/lib/settings/env.server";
import { closeDatabase, databaseIsOpen, db, openDatabase } from "~/lib/db/db.server";
import {
  HOUSEKEEPING_INTERVAL_MS,
  startHousekeeping,
  SWEEP_AFTER_START_MS,
} from "~/services/operators/housekeeping.server";

describe("settings: one schema, parsed once", () => {
  it("has the defaults docs/configuration.md lists", () => {
    const settings = parseSettings({});
    expect(settings).toMatchObject({
      isProduction: false,
      port: 3000,
      host: "0.0.0.0",
      trustProxy: false,
      trustProxyEnabled: false,
      buildDir: "build",
      shutdownGraceMs: 10_000,
      dataDir: path.resolve("./data"),
      database: { engine: "sqlite", file: path.resolve("./data/studio.sqlite") },
      sessionSecret: null,
      cookieSecure: false,
      allowedOrigins: [],
      loginMaxFailuresPerAccount: 10,
      loginMaxFailuresPerAddress: 100,
      loginFailureWindowMinutes: 15,
      registerMaxPerAddress: 20,
      feedbackMaxPerAddress: 10,
      passwordHashQueueMax: 16,
      accessTokenMinutes: 15,
      refreshTokenDays: 30,
      voiceMaxBytes: 25 * 1024 * 1024,
      videoMaxBytes: 2048 * 1024 * 1024,
    });
    expect(parseSettings({ NODE_ENV: "production" }).cookieSecure).toBe(true);
    expect(parseSettings({ NODE_ENV: "production", COOKIE_SECURE: "false" }).cookieSecure).toBe(false);
  });

  it("reads the variables as documented", () => {
    const settings = parseSettings({
      PORT: "8080",
      TRUST_PROXY: "loopback",
      SHUTDOWN_GRACE_SECONDS: "2.5",
      DATA_DIR: "/srv/studio",
      ALLOWED_ORIGINS: " https://a.example , https://b.example,",
      VOICE_MAX_BYTES: "4096",
      VIDEO_MAX_BYTES: "65536",
    });
    expect(settings).toMatchObject({
      port: 8080,
      trustProxy: "loopback",
      trustProxyEnabled: true,
      shutdownGraceMs: 2500,
      database: { file: "/srv/studio/studio.sqlite" },
      allowedOrigins: ["https://a.example", "https://b.example"],
      voiceMaxBytes: 4096,
      videoMaxBytes: 65536,
    });
    expect(parseSettings({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(parseSettings({ TRUST_PROXY: "0" }).trustProxyEnabled).toBe(false);
    expect(parseSettings({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
  });

  it("REGISTRATION, PUBLIC_URL and AI_DAILY_LIMIT (decision 0046): open, none and no cap unless set; a bad one is named", () => {
    expect(parseSettings({})).toMatchObject({ registration: "open", publicUrl: null, aiDailyLimit: 0 });
    expect(
      parseSettings({ REGISTRATION: "Invite", PUBLIC_URL: "https://studio.example.org/", AI_DAILY_LIMIT: "200" }),
    ).toMatchObject({
      registration: "invite",
      publicUrl: "https://studio.example.org",
      aiDailyLimit: 200,
    });
    expect(parseSettings({ REGISTRATION: "closed" }).registration).toBe("closed");
    expect(() => parseSettings({ REGISTRATION: "friends" })).toThrow(
      'REGISTRATION must be one of open, invite, closed, got "friends"',
    );
    expect(() => parseSettings({ AI_DAILY_LIMIT: "-1" })).toThrow(
      "AI_DAILY_LIMIT must be a whole number of at least 0",
    );
    expect(() => parseSettings({ PUBLIC_URL: "studio.example.org" })).toThrow("PUBLIC_URL must be an http(s) URL");
  });

  it("names every bad variable at once, and never echoes a secret", () => {
    let error: unknown;
    try {
      parseSettings({
        PORT: "eighty",
        VIDEO_MAX_BYTES: "-1",
        COOKIE_SECURE: "yes",
        SESSION_SECRET: "short-secret",
        SHUTDOWN_GRACE_SECONDS: "soon",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SettingsError);
    const message = (error as Error).message;
    for (const name of ["PORT", "VIDEO_MAX_BYTES", "COOKIE_SECURE", "SESSION_SECRET", "SHUTDOWN_GRACE_SECONDS"])
      expect(message).toContain(name);
    expect(message).toContain('got "eighty"');
    expect(message).not.toContain("short-secret");
  });
});

describe("life cycle", () => {
  it("the database opens and closes explicitly; `db` says clearly when it is closed", async () => {
    expect(databaseIsOpen()).toBe(true); // tests/unit/setup.ts opened it, as the server does at start
    await closeDatabase();
    expect(databaseIsOpen()).toBe(false);
    expect(() => db.selectFrom("users")).toThrow(/database is not open/);
    await openDatabase();
    expect(await db.selectFrom("users").select("id").execute()).toEqual([]);
  });

  it("housekeeping runs at start and on its schedules, and stops them all", async () => {
    vi.useFakeTimers();
    try {
      const sweep = vi.fn(async () => {});
      const prune = vi.fn(async () => {});
      const housekeeping = startHousekeeping({ sweep, prune });
      expect([sweep.mock.calls.length, prune.mock.calls.length]).toEqual([1, 1]);
      await vi.advanceTimersByTimeAsync(SWEEP_AFTER_START_MS);
      expect(sweep).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(HOUSEKEEPING_INTERVAL_MS - SWEEP_AFTER_START_MS);
      expect([sweep.mock.calls.length, prune.mock.calls.length]).toEqual([3, 2]);
      await housekeeping.stop();
      await vi.advanceTimersByTimeAsync(3 * HOUSEKEEPING_INTERVAL_MS);
      expect([sweep.mock.calls.length, prune.mock.calls.length]).toEqual([3, 2]);
    } finally {
      vi.useRealTimers();
    }
  });
});
