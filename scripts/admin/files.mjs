// What `npm run admin -- backup` and `restore` share besides the settings (those come parsed from the
// build, by the app's one schema: scripts/admin.mjs): the S3 client, PostgreSQL's tools, the files under
// a folder and the storage keys.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** An S3 client as the app makes it (checksums only where required, for S3-compatible servers). */
export async function s3Client(storage) {
  const { S3Client } = await import("@aws-sdk/client-s3");
  const config = { endpoint: storage.endpoint, region: storage.region, forcePathStyle: storage.forcePathStyle };
  if (!process.env.AWS_REQUEST_CHECKSUM_CALCULATION) config.requestChecksumCalculation = "WHEN_REQUIRED";
  if (!process.env.AWS_RESPONSE_CHECKSUM_VALIDATION) config.responseChecksumValidation = "WHEN_REQUIRED";
  return new S3Client(config);
}

/**
 * The folder holding PostgreSQL's client tools (pg_dump, pg_restore, psql), found as tests/harness/pg-cluster.mjs
 * finds the server: PG_BINDIR, `pg_config --bindir`, /usr/lib/postgresql/<version>/bin (newest first,
 * so pg_dump is at least as new as the server), then the PATH.
 */
export function findPgTool(name) {
  const candidates = [];
  if (process.env.PG_BINDIR) candidates.push(process.env.PG_BINDIR);
  const pgConfig = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  if (pgConfig.status === 0 && pgConfig.stdout.trim()) candidates.push(pgConfig.stdout.trim());
  const debian = "/usr/lib/postgresql";
  if (fs.existsSync(debian)) {
    for (const version of fs
      .readdirSync(debian)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a))) {
      candidates.push(path.join(debian, version, "bin"));
    }
  }
  const found = candidates.map((dir) => path.join(dir, name)).find((file) => fs.existsSync(file));
  if (found) return found;
  const which = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  throw new Error(
    `${name} not found (PG_BINDIR, pg_config --bindir, /usr/lib/postgresql/*/bin, PATH): install PostgreSQL's client tools`,
  );
}

/** Every file under `dir` (relative paths), or [] when it does not exist. */
export function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)));
}

/** Storage keys are the app's random ids; anything else in a store is not ours to copy. */
export const KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
