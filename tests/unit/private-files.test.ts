import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDatabase, db, openDatabase } from "~/lib/db/db.server";
import { parseSettings } from "~/lib/settings/env.server";
import { readOrCreateSecretFile } from "~/lib/settings/session-secret.server";
import { makePrivateDir } from "~/lib/storage/private-files.server";
import { createDiskStore } from "~/lib/storage/disk-store.server";

// Decision 0052: DATA_DIR 0700; the SQLite database, its -wal and -shm and the
// session secret 0600, fresh or left 0755/0644 by an older start; the disk store's folders 0700.
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "studio-private-"));
const SECRET = "private-files-test-secret-0123456789-abcdefgh";
let savedUmask: number;

beforeAll(async () => {
  // The umask a default shell gives, so "0644 unless told otherwise" is what a careless create makes.
  savedUmask = process.umask(0o022);
  // This file opens its own SQLite databases (on PostgreSQL runs too): the setup's one is closed.
  await closeDatabase();
});
afterAll(() => {
  process.umask(savedUmask);
  fs.rmSync(scratch, { recursive: true, force: true });
});
afterEach(async () => {
  await closeDatabase();
});

/** Opens and migrates a SQLite database in `dataDir`, as the server does at start, and writes to it. */
async function openSqliteIn(dataDir: string) {
  await openDatabase(parseSettings({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, NODE_ENV: "production" }));
  await sql`CREATE TABLE IF NOT EXISTS private_files_probe (n INTEGER)`.execute(db);
  await sql`INSERT INTO private_files_probe (n) VALUES (1)`.execute(db);
}

const sqliteFiles = (dataDir: string) =>
  ["studio.sqlite", "studio.sqlite-wal", "studio.sqlite-shm"].map((name) => path.join(dataDir, name));

describe("a fresh DATA_DIR", () => {
  it.each([0o022, 0o000])("is 0700, and the database, -wal and -shm 0600 (umask %o)", async (umask) => {
    process.umask(umask);
    try {
      const dataDir = path.join(scratch, `fresh-${umask}`, "data");
      await openSqliteIn(dataDir);
      expect(modeOf(dataDir)).toBe(0o700);
      // The parent made on the way is private too.
      expect(modeOf(path.dirname(dataDir))).toBe(0o700);
      for (const file of sqliteFiles(dataDir)) expect([file, modeOf(file)]).toEqual([file, 0o600]);
    } finally {
      process.umask(0o022);
    }
  });

  it("the generated session secret is 0600, and its folder 0700", async () => {
    const dataDir = path.join(scratch, "secret-fresh");
    vi.resetModules();
    vi.stubEnv("DATA_DIR", dataDir);
    vi.stubEnv("SESSION_SECRET", "");
    try {
      const { sessionSecret } = await import("~/lib/settings/session-secret.server");
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      expect(sessionSecret().length).toBeGreaterThanOrEqual(32);
      warn.mockRestore();
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, "session-secret"))).toBe(0o600);
  });
});

describe("files an older start left 0755/0644", () => {
  it("are narrowed: DATA_DIR to 0700, the database, -wal, -shm and session secret to 0600", async () => {
    const dataDir = path.join(scratch, "older");
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    // An older start that is still open (or crashed): the WAL and shared-memory files are there.
    const older = new Database(path.join(dataDir, "studio.sqlite"));
    older.pragma("journal_mode = WAL");
    older.exec("CREATE TABLE older (n INTEGER); INSERT INTO older VALUES (1);");
    const secretFile = path.join(dataDir, "session-secret");
    fs.writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o644 });
    for (const file of [...sqliteFiles(dataDir), secretFile]) fs.chmodSync(file, 0o644);
    expect(modeOf(path.join(dataDir, "studio.sqlite-wal"))).toBe(0o644);

    try {
      await openSqliteIn(dataDir);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const file of sqliteFiles(dataDir)) expect([file, modeOf(file)]).toEqual([file, 0o600]);
      // The older data is still there, read through the reopened database.
      expect((await sql<{ n: number }>`SELECT n FROM older`.execute(db)).rows).toEqual([{ n: 1 }]);
    } finally {
      older.close();
    }
    expect(readOrCreateSecretFile(secretFile)).toBe(SECRET);
    expect(modeOf(secretFile)).toBe(0o600);
  });

  it("a DATABASE_FILE's existing folder outside DATA_DIR is left as it is; its new files are 0600", async () => {
    const shared = path.join(scratch, "shared");
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o755);
    const dataDir = path.join(scratch, "elsewhere-data");
    await openDatabase(
      parseSettings({ DATA_DIR: dataDir, DATABASE_FILE: path.join(shared, "studio.sqlite"), SESSION_SECRET: SECRET }),
    );
    await sql`CREATE TABLE IF NOT EXISTS probe (n INTEGER)`.execute(db);
    expect(modeOf(shared)).toBe(0o755);
    for (const file of sqliteFiles(shared)) expect([file, modeOf(file)]).toEqual([file, 0o600]);
  });

  it("a sticky, shared folder (as /tmp) is never narrowed", () => {
    const sticky = path.join(scratch, "sticky");
    fs.mkdirSync(sticky);
    fs.chmodSync(sticky, 0o1777);
    makePrivateDir(sticky, { restrictExisting: true });
    expect(fs.statSync(sticky).mode & 0o7777).toBe(0o1777);
  });
});

describe("the disk file store", () => {
  it("makes its folders 0700 and its files 0600", async () => {
    const root = path.join(scratch, "media");
    const store = createDiskStore(root, { instanceId: "private1" });
    const staged = await store.stage(Readable.from([Buffer.from("hello, private world")]), {
      maxBytes: 1024,
      inspect: () => "text/plain",
    });
    expect(modeOf(staged.tempPath)).toBe(0o600);
    await store.commit(staged, "privatekey01");
    const stored = path.join(root, "objects", "pr", "privatekey01");
    expect(modeOf(stored)).toBe(0o600);
    for (const folder of [
      root,
      path.join(root, "tmp"),
      path.join(root, "tmp", "private1"),
      path.join(root, "objects"),
      path.dirname(stored),
    ]) {
      expect([folder, modeOf(folder)]).toEqual([folder, 0o700]);
    }
  });
});
