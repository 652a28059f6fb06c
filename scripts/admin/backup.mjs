// `npm run backup [-- <folder>]` (`npm run admin -- backup [<folder>]`): a consistent snapshot of the
// database and the media into <folder> (default ./backups/<timestamp>), with a manifest.json. The
// settings (DATA_DIR, DATABASE_FILE, DATABASE_URL, STORAGE_URL, and AWS_* for S3) are the server's own,
// parsed by its schema in the build (scripts/admin.mjs passes them). The server may be running.
//
// Order, for consistency: the database snapshot first (SQLite's online backup API through
// better-sqlite3; PostgreSQL: pg_dump in its custom format, from a snapshot exported by a repeatable-read
// transaction that also lists the media ids it holds), then the media (every committed object of the
// file store or of the S3 bucket/prefix; temporary uploads are skipped). An object written after the
// snapshot is simply unreferenced in the restored data and the sweep removes it; a file deleted between
// the two steps is listed in the manifest under media.missing (its row is in the snapshot, its bytes are
// gone).
//
// Layout: manifest.json, database.sqlite or database.dump, media/objects/<2 chars>/<key> (the disk
// store's own layout), session-secret (when the server keeps its secret in DATA_DIR).
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { filesUnder, findPgTool, KEY_PATTERN, s3Client } from "./files.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function run(file, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "inherit", "pipe"], env: { ...process.env, ...env } });
    let errors = "";
    child.stderr.on("data", (chunk) => (errors += chunk));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(file)} failed (exit ${code}): ${errors.trim()}`)),
    );
  });
}

async function backupSqlite(file, target) {
  if (!fs.existsSync(file)) throw new Error(`no SQLite database at ${file} (DATA_DIR / DATABASE_FILE)`);
  const { default: Database } = await import("better-sqlite3");
  const source = new Database(file, { readonly: true, fileMustExist: true });
  try {
    source.pragma("busy_timeout = 5000");
    // The online backup API: a consistent copy while the server keeps writing.
    await source.backup(target);
  } finally {
    source.close();
  }
  const copy = new Database(target, { readonly: true });
  try {
    return copy.prepare("select id from media_files").pluck().all();
  } finally {
    copy.close();
  }
}

async function backupPostgres(url, target) {
  const pgDump = findPgTool("pg_dump");
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The dump and the list of media ids see the same snapshot.
    await client.query("begin isolation level repeatable read read only");
    const { rows } = await client.query("select pg_export_snapshot() as snapshot");
    const ids = (await client.query("select id from media_files")).rows.map((row) => row.id);
    await run(pgDump, [
      "--format=custom",
      "--no-owner",
      "--no-privileges",
      `--snapshot=${rows[0].snapshot}`,
      `--file=${target}`,
      `--dbname=${url}`,
    ]);
    await client.query("commit");
    return ids;
  } finally {
    await client.end();
  }
}

async function backupMedia(storage, mediaDir) {
  const copied = new Set();
  let bytes = 0;
  const targetOf = (key) => path.join(mediaDir, "objects", key.slice(0, 2), key);
  if (storage.kind === "file") {
    const objects = path.join(storage.root, "objects");
    for (const relative of filesUnder(objects)) {
      const key = path.basename(relative);
      if (!KEY_PATTERN.test(key)) continue;
      await fsp.mkdir(path.dirname(targetOf(key)), { recursive: true });
      try {
        await fsp.copyFile(path.join(objects, relative), targetOf(key));
      } catch (error) {
        if (error.code === "ENOENT") continue; // deleted meanwhile
        throw error;
      }
      bytes += (await fsp.stat(targetOf(key))).size;
      copied.add(key);
    }
    return { copied, bytes };
  }
  const { GetObjectCommand, ListObjectsV2Command } = await import("@aws-sdk/client-s3");
  const client = await s3Client(storage);
  const objectsPrefix = `${storage.prefix}objects/`;
  try {
    let token;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: objectsPrefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key.slice(objectsPrefix.length);
        if (!KEY_PATTERN.test(key)) continue;
        let response;
        try {
          response = await client.send(new GetObjectCommand({ Bucket: storage.bucket, Key: object.Key }));
        } catch (error) {
          if (error?.$metadata?.httpStatusCode === 404 || error?.name === "NoSuchKey") continue; // deleted meanwhile
          throw error;
        }
        await fsp.mkdir(path.dirname(targetOf(key)), { recursive: true });
        await pipeline(response.Body, fs.createWriteStream(targetOf(key)));
        bytes += (await fsp.stat(targetOf(key))).size;
        copied.add(key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  return { copied, bytes };
}

/**
 * @param {string | undefined} folder
 * @param {{ dataDir: string, database: { engine: "sqlite", file: string } | { engine: "postgres", url: string }, storage: any, sessionSecretSet: boolean }} settings
 */
export async function backup(folder, settings) {
  const target = path.resolve(folder ?? path.join(root, "backups", new Date().toISOString().replace(/[:.]/g, "-")));
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0)
    throw new Error(`${target} is not empty: choose a new backup folder`);
  await fsp.mkdir(target, { recursive: true, mode: 0o700 });
  const started = new Date();

  // 1. The database.
  const databaseFile = settings.database.engine === "sqlite" ? "database.sqlite" : "database.dump";
  const ids =
    settings.database.engine === "sqlite"
      ? await backupSqlite(settings.database.file, path.join(target, databaseFile))
      : await backupPostgres(settings.database.url, path.join(target, databaseFile));
  const snapshotAt = new Date();

  // 2. The media, after the snapshot.
  const { copied, bytes } = await backupMedia(settings.storage, path.join(target, "media"));
  const missing = ids.filter((id) => !copied.has(id));

  // 3. The session secret the server generated (none when SESSION_SECRET is set).
  const secretFile = path.join(settings.dataDir, "session-secret");
  const hasSecret = !settings.sessionSecretSet && fs.existsSync(secretFile);
  if (hasSecret) await fsp.copyFile(secretFile, path.join(target, "session-secret"));

  const manifest = {
    format: 1,
    app: "creative-ai-studio",
    started_at: started.toISOString(),
    database_snapshot_at: snapshotAt.toISOString(),
    finished_at: new Date().toISOString(),
    database: { engine: settings.database.engine, file: databaseFile, media_rows: ids.length },
    media: {
      source: settings.storage.kind,
      folder: "media/objects",
      objects: copied.size,
      bytes,
      unreferenced: copied.size - (ids.length - missing.length),
      missing,
    },
    session_secret: hasSecret ? "session-secret" : null,
    consistency:
      "The database snapshot was taken first, then the media were copied. Objects written after the snapshot are " +
      "not referenced by it and the server's sweep removes them after a restore. Files listed in media.missing " +
      "were deleted between the two steps: their rows are in the snapshot without bytes.",
  };
  await fsp.writeFile(path.join(target, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return { folder: target, manifest };
}

/** The command: exit code 0 done, 1 failed, 2 bad arguments. */
export async function backupCommand(args, settings) {
  if (args.length > 1 || args[0]?.startsWith("-")) {
    console.error("usage: npm run backup [-- <folder>]   (default ./backups/<timestamp>)");
    return 2;
  }
  try {
    const { folder, manifest } = await backup(args[0], settings);
    const mib = (manifest.media.bytes / 1024 / 1024).toFixed(1);
    console.log(
      `[backup] ${manifest.database.engine} database (${manifest.database.media_rows} file rows) and ${manifest.media.objects} object(s), ${mib} MiB, from ${manifest.media.source} storage → ${folder}`,
    );
    if (manifest.media.missing.length)
      console.warn(
        `[backup] warning: ${manifest.media.missing.length} file(s) were deleted during the backup (manifest: media.missing)`,
      );
    return 0;
  } catch (error) {
    console.error(`[backup] failed: ${error.message}`);
    return 1;
  }
}
