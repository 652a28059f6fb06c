// npm run restore -- <folder>: puts a backup made by `npm run backup` (scripts/backup.mjs) back, into
// the data folder, database and file store the settings name (DATA_DIR, DATABASE_FILE, DATABASE_URL,
// STORAGE_URL: see scripts/backup-settings.mjs). Stop the server first. The target must be EMPTY:
// - SQLite: no database file yet, and DATA_DIR absent or empty;
// - PostgreSQL: a database (created beforehand, e.g. `createdb studio`) without tables;
// - the file store: no file under its folder, or no object under the bucket's prefix (objects/, tmp/).
// Anything else is refused with a message saying what is in the way; nothing is overwritten.
// The database engine must be the one the backup was made from; the media can move between the disk
// and S3 (the objects are the same either way). Start the server afterwards: it migrates if needed.
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { filesUnder, findPgTool, KEY_PATTERN, readSettings, s3Client } from "./backup-settings.mjs";

class Refused extends Error {}

function run(file, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "inherit", "pipe"] });
    let errors = "";
    child.stderr.on("data", (chunk) => (errors += chunk));
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(file)} failed (exit ${code}): ${errors.trim()}`))));
  });
}

const isEmptyFolder = (dir) => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;

async function postgresTables(url) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("select table_name from information_schema.tables where table_schema = 'public' order by 1");
    return rows.map((row) => row.table_name);
  } finally {
    await client.end();
  }
}

async function s3HasObjects(storage) {
  const { ListObjectsV2Command } = await import("@aws-sdk/client-s3");
  const client = await s3Client(storage);
  try {
    for (const under of ["objects/", "tmp/"]) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: `${storage.prefix}${under}`, MaxKeys: 1 }));
      if ((page.Contents ?? []).length > 0) return true;
    }
    return false;
  } finally {
    client.destroy();
  }
}

async function restoreMedia(storage, objectsDir) {
  const files = filesUnder(objectsDir).filter((relative) => KEY_PATTERN.test(path.basename(relative)));
  if (storage.kind === "file") {
    for (const relative of files) {
      const key = path.basename(relative);
      const target = path.join(storage.root, "objects", key.slice(0, 2), key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.copyFile(path.join(objectsDir, relative), target, fs.constants.COPYFILE_EXCL);
    }
    return files.length;
  }
  const { Upload } = await import("@aws-sdk/lib-storage");
  const client = await s3Client(storage);
  try {
    for (const relative of files) {
      const key = path.basename(relative);
      // Multipart for large files, with the app's part size (memory stays flat).
      const upload = new Upload({
        client,
        params: { Bucket: storage.bucket, Key: `${storage.prefix}objects/${key}`, Body: fs.createReadStream(path.join(objectsDir, relative)) },
        partSize: 8 * 1024 * 1024,
        queueSize: 2,
      });
      await upload.done();
    }
  } finally {
    client.destroy();
  }
  return files.length;
}

export async function restore(folder, env = process.env) {
  if (!folder) throw new Refused("usage: npm run restore -- <backup folder>");
  const source = path.resolve(folder);
  const manifestFile = path.join(source, "manifest.json");
  if (!fs.existsSync(manifestFile)) throw new Refused(`${source} has no manifest.json: not a backup made by \`npm run backup\``);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
  if (manifest.format !== 1) throw new Refused(`${manifestFile}: unknown backup format ${manifest.format}`);
  const settings = readSettings(env);

  // Everything is checked before anything is written.
  if (manifest.database.engine !== settings.database.engine) {
    throw new Refused(
      `the backup holds a ${manifest.database.engine} database but the settings name ${settings.database.engine} ` +
        "(DATABASE_URL set: PostgreSQL; unset: SQLite): restore into the same engine",
    );
  }
  if (settings.database.engine === "sqlite") {
    if (fs.existsSync(settings.database.file)) throw new Refused(`${settings.database.file} already exists: restore only into an empty data folder`);
    if (!isEmptyFolder(settings.dataDir)) throw new Refused(`DATA_DIR ${settings.dataDir} is not empty: restore only into an empty data folder`);
  } else {
    const tables = await postgresTables(settings.database.url);
    if (tables.length > 0) {
      throw new Refused(`the database in DATABASE_URL is not empty (${tables.length} tables, e.g. ${tables.slice(0, 3).join(", ")}): restore only into an empty database`);
    }
  }
  if (settings.storage.kind === "file") {
    if (filesUnder(settings.storage.root).length > 0) throw new Refused(`the file store ${settings.storage.root} is not empty: restore only into an empty one`);
  } else if (await s3HasObjects(settings.storage)) {
    throw new Refused(`s3://${settings.storage.bucket}/${settings.storage.prefix} already holds objects: restore only into an empty bucket or prefix`);
  }

  // The database.
  const databaseFile = path.join(source, manifest.database.file);
  if (settings.database.engine === "sqlite") {
    await fsp.mkdir(path.dirname(settings.database.file), { recursive: true });
    await fsp.copyFile(databaseFile, settings.database.file, fs.constants.COPYFILE_EXCL);
  } else {
    await run(findPgTool("pg_restore"), ["--no-owner", "--no-privileges", "--exit-on-error", `--dbname=${settings.database.url}`, databaseFile]);
  }

  // The media.
  const objects = await restoreMedia(settings.storage, path.join(source, manifest.media.folder));

  // The generated session secret, unless SESSION_SECRET is set (then that one counts).
  let secret = false;
  if (manifest.session_secret && !settings.sessionSecretSet) {
    await fsp.mkdir(settings.dataDir, { recursive: true });
    await fsp.copyFile(path.join(source, manifest.session_secret), path.join(settings.dataDir, "session-secret"), fs.constants.COPYFILE_EXCL);
    await fsp.chmod(path.join(settings.dataDir, "session-secret"), 0o600);
    secret = true;
  }
  return { manifest, objects, secret, settings };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2).filter((arg) => arg !== "--");
  try {
    const { manifest, objects, secret, settings } = await restore(args[0]);
    const where = settings.storage.kind === "file" ? settings.storage.root : `s3://${settings.storage.bucket}/${settings.storage.prefix}`;
    const database = settings.database.engine === "sqlite" ? settings.database.file : "the database in DATABASE_URL";
    console.log(`[restore] ${manifest.database.engine} database → ${database}; ${objects} object(s) → ${where}${secret ? "; session secret → DATA_DIR" : ""}`);
    if (manifest.media.missing?.length) {
      console.warn(`[restore] warning: ${manifest.media.missing.length} file(s) were deleted while the backup ran: their rows have no bytes (manifest: media.missing)`);
    }
  } catch (error) {
    console.error(`[restore] ${error instanceof Refused ? "refused" : "failed"}: ${error.message}`);
    process.exit(error instanceof Refused ? 2 : 1);
  }
}
