import fs from "node:fs";
import path from "node:path";

/**
 * DATA_DIR holds the database, the generated session secret and people's files: only the account the
 * studio runs as may read it. Folders are 0700 and files 0600 whatever the umask (chmod after
 * creating), and a folder or file an older start left 0755/0644 is narrowed when it is met again, as
 * long as this process owns it (someone else's is left alone: chmod would fail, and it is theirs).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `dir` (and its missing parents) 0700. With `restrictExisting` (DATA_DIR itself), an existing
 * folder is narrowed to 0700 too; without it (a DATABASE_FILE's folder elsewhere) only the folders
 * made here are, since an existing one may be shared on purpose. A sticky folder (/tmp) never is.
 */
export function makePrivateDir(dir: string, { restrictExisting = false } = {}): void {
  const resolved = path.resolve(dir);
  const first = fs.mkdirSync(resolved, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first !== undefined) {
    // Each folder made here, from the first one down to `dir`: ours, and new.
    const made = [resolved];
    for (let at = resolved; at !== first && path.dirname(at) !== at;) made.push((at = path.dirname(at)));
    for (const folder of made) fs.chmodSync(folder, PRIVATE_DIR_MODE);
    return;
  }
  if (restrictExisting) restrict(resolved, PRIVATE_DIR_MODE);
}

/** Narrows each of `files` that exists to 0600 (a missing one is skipped). */
export function makePrivateFiles(...files: string[]): void {
  for (const file of files) restrict(file, PRIVATE_FILE_MODE);
}

/**
 * The SQLite database's files 0600: the database itself (made empty here when missing, which SQLite
 * takes for a new database) and its -wal and -shm. Called before the database opens, so SQLite,
 * which gives the WAL and shared-memory files the database file's mode, creates them 0600, and after,
 * for any it made anyway.
 */
export function makePrivateSqliteFiles(file: string): void {
  if (file !== ":memory:" && file !== "") fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
  makePrivateFiles(file, `${file}-wal`, `${file}-shm`);
}

function restrict(file: string, mode: number): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if ((stat.mode & 0o777) === mode) return;
  if (stat.isDirectory() && stat.mode & 0o1000) return;
  if (typeof process.getuid === "function" && stat.uid !== process.getuid()) return;
  // setuid/setgid bits (a setgid folder's group inheritance) stay as they were.
  fs.chmodSync(file, (stat.mode & 0o6000) | mode);
}
