// `npm run restore -- <folder>` (`npm run admin -- restore <folder>`): puts a backup made by `npm run
// backup` (scripts/admin/backup.mjs) back, into the data folder, database and file store the settings
// name (DATA_DIR, DATABASE_FILE, DATABASE_URL, STORAGE_URL: the server's own, parsed by its schema in the
// build; scripts/admin.mjs passes them). Stop the server first. The target must be EMPTY:
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
import { filesUnder, findPgTool, KEY_PATTERN, s3Client } from "./files.mjs";

class Refused extends Error {}

function run(file, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "inherit", "pipe"] });
    let errors = "";
    child.stderr.on("data", (chunk) => (errors += chunk));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(file)} failed (exit ${code}): ${errors.trim()}`)),
    );
  });
}

const isEmptyFolder = (dir) => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;

async function postgresTables(url) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select table_name from information_schema.tables where table_schema = 'public' order by 1",
    );
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
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: `${storage.prefix}${under}`, MaxKeys: 1 }),
      );
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
        params: {
          Bucket: storage.bucket,
          Key: `${storage.prefix}objects/${key}`,
          Body: fs.createReadStream(path.join(objectsDir, relative)),
        },
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

// The only names `npm run backup` writes (scripts/admin/backup.mjs); a manifest naming anything else is not one
// of ours and is refused before anything is read or written through it.
const DATABASE_FILES = { sqlite: "database.sqlite", postgres: "database.dump" };
const MEDIA_FOLDER = "media/objects";
const SESSION_SECRET_FILE = "session-secret";

/**
 * `relative` under `source`, checked: it resolves inside `source`, and neither it nor any folder on the
 * way is a symbolic link (a link inside a backup could point anywhere: ~/.ssh, /etc). Returns the path,
 * or null when it does not exist and `optional`.
 */
function insideBackup(source, relative, kind, what, optional = false) {
  const target = path.resolve(source, relative);
  const fromSource = path.relative(source, target);
  if (fromSource === "" || fromSource.startsWith("..") || path.isAbsolute(fromSource)) {
    throw new Refused(`manifest.json: ${what} "${relative}" is outside the backup folder`);
  }
  let current = source;
  for (const part of fromSource.split(path.sep)) {
    current = path.join(current, part);
    let stat;
    try {
      stat = fs.lstatSync(current);
    } catch (error) {
      if (error.code === "ENOENT" && optional) return null;
      if (error.code === "ENOENT") throw new Refused(`${what} ${current} is missing from the backup`);
      throw error;
    }
    if (stat.isSymbolicLink())
      throw new Refused(`${what}: ${current} is a symbolic link; a backup made by \`npm run backup\` holds none`);
    if (current === target && (kind === "file" ? !stat.isFile() : !stat.isDirectory())) {
      throw new Refused(`${what}: ${current} is not a ${kind === "file" ? "regular file" : "folder"}`);
    }
  }
  return target;
}

/** Every entry under the media folder must be a folder or a regular file: no links, devices or sockets. */
function checkMediaTree(dir) {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory() || entry.isFile()) continue;
    const where = path.join(entry.parentPath ?? entry.path, entry.name);
    throw new Refused(
      `${where} is ${entry.isSymbolicLink() ? "a symbolic link" : "not a regular file"}; a backup made by \`npm run backup\` holds none`,
    );
  }
}

/** The manifest's names, checked against what backup writes; the resolved paths, all inside `source`. */
function checkedPaths(source, manifest) {
  const isRecord = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  if (!isRecord(manifest.database) || !isRecord(manifest.media))
    throw new Refused("manifest.json: no database or media section: not a backup made by `npm run backup`");
  const engine = manifest.database.engine;
  if (!Object.hasOwn(DATABASE_FILES, engine))
    throw new Refused(`manifest.json: unknown database engine ${JSON.stringify(engine)}`);
  if (manifest.database.file !== DATABASE_FILES[engine]) {
    throw new Refused(
      `manifest.json: database.file ${JSON.stringify(manifest.database.file)} is not "${DATABASE_FILES[engine]}", the name backup writes`,
    );
  }
  if (manifest.media.folder !== MEDIA_FOLDER) {
    throw new Refused(
      `manifest.json: media.folder ${JSON.stringify(manifest.media.folder)} is not "${MEDIA_FOLDER}", the name backup writes`,
    );
  }
  if (manifest.session_secret != null && manifest.session_secret !== SESSION_SECRET_FILE) {
    throw new Refused(
      `manifest.json: session_secret ${JSON.stringify(manifest.session_secret)} is not "${SESSION_SECRET_FILE}", the name backup writes`,
    );
  }
  const databaseFile = insideBackup(source, DATABASE_FILES[engine], "file", "the database");
  // No media folder: a backup of a store without objects.
  const mediaFolder = insideBackup(source, MEDIA_FOLDER, "folder", "the media folder", true);
  if (mediaFolder) checkMediaTree(mediaFolder);
  const sessionSecret = manifest.session_secret
    ? insideBackup(source, SESSION_SECRET_FILE, "file", "the session secret")
    : null;
  return { databaseFile, mediaFolder, sessionSecret };
}

/**
 * @param {string | undefined} folder
 * @param {{ dataDir: string, database: { engine: "sqlite", file: string } | { engine: "postgres", url: string }, storage: any, sessionSecretSet: boolean }} settings
 */
export async function restore(folder, settings) {
  if (!folder) throw new Refused("usage: npm run restore -- <backup folder>");
  if (!fs.existsSync(folder)) throw new Refused(`${path.resolve(folder)} does not exist`);
  // The folder itself may be reached through a link; what is inside it may not.
  const source = fs.realpathSync(path.resolve(folder));
  const manifestFile = path.join(source, "manifest.json");
  if (!fs.existsSync(manifestFile))
    throw new Refused(`${source} has no manifest.json: not a backup made by \`npm run backup\``);
  insideBackup(source, "manifest.json", "file", "the manifest");
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
  } catch {
    throw new Refused(`${manifestFile} is not JSON: not a backup made by \`npm run backup\``);
  }
  if (manifest === null || typeof manifest !== "object" || manifest.format !== 1)
    throw new Refused(`${manifestFile}: unknown backup format ${manifest?.format}`);
  const paths = checkedPaths(source, manifest);

  // Everything is checked before anything is written.
  if (manifest.database.engine !== settings.database.engine) {
    throw new Refused(
      `the backup holds a ${manifest.database.engine} database but the settings name ${settings.database.engine} ` +
        "(DATABASE_URL set: PostgreSQL; unset: SQLite): restore into the same engine",
    );
  }
  if (settings.database.engine === "sqlite") {
    if (fs.existsSync(settings.database.file))
      throw new Refused(`${settings.database.file} already exists: restore only into an empty data folder`);
    if (!isEmptyFolder(settings.dataDir))
      throw new Refused(`DATA_DIR ${settings.dataDir} is not empty: restore only into an empty data folder`);
  } else {
    const tables = await postgresTables(settings.database.url);
    if (tables.length > 0) {
      throw new Refused(
        `the database in DATABASE_URL is not empty (${tables.length} tables, e.g. ${tables.slice(0, 3).join(", ")}): restore only into an empty database`,
      );
    }
  }
  if (settings.storage.kind === "file") {
    if (filesUnder(settings.storage.root).length > 0)
      throw new Refused(`the file store ${settings.storage.root} is not empty: restore only into an empty one`);
  } else if (await s3HasObjects(settings.storage)) {
    throw new Refused(
      `s3://${settings.storage.bucket}/${settings.storage.prefix} already holds objects: restore only into an empty bucket or prefix`,
    );
  }

  // The database.
  const { databaseFile } = paths;
  if (settings.database.engine === "sqlite") {
    await fsp.mkdir(path.dirname(settings.database.file), { recursive: true });
    await fsp.copyFile(databaseFile, settings.database.file, fs.constants.COPYFILE_EXCL);
  } else {
    await run(findPgTool("pg_restore"), [
      "--no-owner",
      "--no-privileges",
      "--exit-on-error",
      `--dbname=${settings.database.url}`,
      databaseFile,
    ]);
  }

  // The media.
  const objects = paths.mediaFolder ? await restoreMedia(settings.storage, paths.mediaFolder) : 0;

  // The generated session secret, unless SESSION_SECRET is set (then that one counts).
  let secret = false;
  if (paths.sessionSecret && !settings.sessionSecretSet) {
    await fsp.mkdir(settings.dataDir, { recursive: true });
    await fsp.copyFile(paths.sessionSecret, path.join(settings.dataDir, "session-secret"), fs.constants.COPYFILE_EXCL);
    await fsp.chmod(path.join(settings.dataDir, "session-secret"), 0o600);
    secret = true;
  }
  return { manifest, objects, secret, settings };
}

/** The command: exit code 0 done, 1 failed, 2 refused (nothing written). */
export async function restoreCommand(args, settings) {
  try {
    const { manifest, objects, secret } = await restore(args[0], settings);
    const where =
      settings.storage.kind === "file"
        ? settings.storage.root
        : `s3://${settings.storage.bucket}/${settings.storage.prefix}`;
    const database = settings.database.engine === "sqlite" ? settings.database.file : "the database in DATABASE_URL";
    console.log(
      `[restore] ${manifest.database.engine} database → ${database}; ${objects} object(s) → ${where}${secret ? "; session secret → DATA_DIR" : ""}`,
    );
    if (manifest.media.missing?.length) {
      console.warn(
        `[restore] warning: ${manifest.media.missing.length} file(s) were deleted while the backup ran: their rows have no bytes (manifest: media.missing)`,
      );
    }
    return 0;
  } catch (error) {
    console.error(`[restore] ${error instanceof Refused ? "refused" : "failed"}: ${error.message}`);
    return error instanceof Refused ? 2 : 1;
  }
}
