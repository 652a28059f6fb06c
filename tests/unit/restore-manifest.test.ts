import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * `npm run restore` takes only what `npm run backup` writes: the fixed names (database.sqlite or
 * database.dump, media/objects, session-secret), every resolved path inside the backup folder, no
 * symbolic links. A crafted manifest is refused (exit 2, a message) and nothing is copied. The round
 * trip of a real backup is tests/api/backup.test.ts; here a hand-made folder of the same layout.
 */
const root = path.resolve(__dirname, "../..");
const KEY = "abcdefgh1234";
const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A folder laid out as backup writes it, plus, outside it, "secrets" a crafted manifest might reach for. */
function backupFolder(manifest: (base: Record<string, any>) => Record<string, any> = (base) => base) {
  const parent = tempDir("studio-restore-");
  const outside = path.join(parent, "outside");
  fs.mkdirSync(path.join(outside, KEY.slice(0, 2)), { recursive: true });
  fs.writeFileSync(path.join(outside, KEY.slice(0, 2), KEY), "private key of the operator");
  fs.writeFileSync(path.join(outside, "database.sqlite"), "someone else's database");
  const folder = path.join(parent, "backup");
  fs.mkdirSync(path.join(folder, "media", "objects", KEY.slice(0, 2)), { recursive: true });
  fs.writeFileSync(path.join(folder, "database.sqlite"), "SQLite format 3\0 (the snapshot)");
  fs.writeFileSync(path.join(folder, "media", "objects", KEY.slice(0, 2), KEY), "a stored image");
  fs.writeFileSync(path.join(folder, "session-secret"), "s".repeat(64));
  const base = {
    format: 1,
    app: "creative-ai-studio",
    database: { engine: "sqlite", file: "database.sqlite", media_rows: 1 },
    media: { source: "file", folder: "media/objects", objects: 1, bytes: 14, unreferenced: 0, missing: [] },
    session_secret: "session-secret",
  };
  fs.writeFileSync(path.join(folder, "manifest.json"), JSON.stringify(manifest(base)));
  return { folder, outside, parent };
}

function restore(folder: string) {
  const dataDir = path.join(tempDir("studio-restore-target-"), "data");
  const result = spawnSync(process.execPath, [path.join(root, "scripts", "admin.mjs"), "restore", folder], {
    cwd: root,
    encoding: "utf8",
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      DATABASE_FILE: "",
      STORAGE_URL: "",
      SESSION_SECRET: "",
    },
  });
  const copied = fs.existsSync(dataDir) ? fs.readdirSync(dataDir, { recursive: true }).map(String) : [];
  return { code: result.status, output: `${result.stdout}${result.stderr}`, dataDir, copied };
}

function expectRefused(result: ReturnType<typeof restore>, message: RegExp) {
  expect(result.output).toMatch(/\[restore\] refused: /);
  expect(result.output).toMatch(message);
  expect(result.code).toBe(2);
  expect(result.copied).toEqual([]);
}

describe("npm run restore refuses a crafted backup", () => {
  it("restores a folder laid out as backup writes it", () => {
    const { folder } = backupFolder();
    const result = restore(folder);
    expect(result.code, result.output).toBe(0);
    expect(fs.readFileSync(path.join(result.dataDir, "media", "objects", KEY.slice(0, 2), KEY), "utf8")).toBe(
      "a stored image",
    );
    expect(fs.readFileSync(path.join(result.dataDir, "studio.sqlite"), "utf8")).toContain("the snapshot");
    expect(fs.readFileSync(path.join(result.dataDir, "session-secret"), "utf8")).toBe("s".repeat(64));
  });

  it("a media folder reaching out of the backup with ..", () => {
    const { folder } = backupFolder((base) => ({ ...base, media: { ...base.media, folder: "../outside" } }));
    expectRefused(restore(folder), /media\.folder "\.\.\/outside" is not "media\/objects"/);
  });

  it("an absolute database path", () => {
    const crafted = backupFolder();
    const manifestFile = path.join(crafted.folder, "manifest.json");
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
    manifest.database.file = path.join(crafted.outside, "database.sqlite");
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    expectRefused(restore(crafted.folder), /database\.file ".*outside\/database\.sqlite" is not "database\.sqlite"/);
  });

  it("a session secret named elsewhere", () => {
    const { folder } = backupFolder((base) => ({ ...base, session_secret: "../../../home/op/.ssh/id_ed25519" }));
    expectRefused(restore(folder), /session_secret .* is not "session-secret"/);
  });

  it("an unknown name, even inside the folder", () => {
    const crafted = backupFolder((base) => ({ ...base, database: { ...base.database, file: "other.sqlite" } }));
    fs.writeFileSync(path.join(crafted.folder, "other.sqlite"), "x");
    expectRefused(restore(crafted.folder), /database\.file "other\.sqlite" is not "database\.sqlite"/);
    const engine = backupFolder((base) => ({ ...base, database: { ...base.database, engine: "mysql" } }));
    expectRefused(restore(engine.folder), /unknown database engine "mysql"/);
  });

  it("a symbolic link inside the backup: a media file, the media folder, the database", () => {
    const file = backupFolder();
    const linked = path.join(file.folder, "media", "objects", KEY.slice(0, 2), "zzzzzzzz9999");
    fs.symlinkSync(path.join(file.outside, KEY.slice(0, 2), KEY), linked);
    expectRefused(restore(file.folder), /zzzzzzzz9999 is a symbolic link/);

    const folder = backupFolder();
    fs.rmSync(path.join(folder.folder, "media"), { recursive: true });
    fs.mkdirSync(path.join(folder.folder, "media"));
    fs.symlinkSync(folder.outside, path.join(folder.folder, "media", "objects"));
    expectRefused(restore(folder.folder), /media\/objects is a symbolic link/);

    const database = backupFolder();
    fs.rmSync(path.join(database.folder, "database.sqlite"));
    fs.symlinkSync(path.join(database.outside, "database.sqlite"), path.join(database.folder, "database.sqlite"));
    expectRefused(restore(database.folder), /database\.sqlite is a symbolic link/);
  });

  it("a manifest that is not JSON, or has no sections", () => {
    const broken = backupFolder();
    fs.writeFileSync(path.join(broken.folder, "manifest.json"), "{ not json");
    expectRefused(restore(broken.folder), /is not JSON/);
    const empty = backupFolder(() => ({ format: 1 }));
    expectRefused(restore(empty.folder), /no database or media section/);
  });
});
