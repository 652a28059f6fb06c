// The settings `npm run backup` and `npm run restore` read (plain scripts, no TypeScript build), parsed
// minimally here; the server's own schema (app/lib/env.server.ts) is the full one. Four variables:
// - DATA_DIR       default ./data (relative to the current folder, as for `npm start`);
// - DATABASE_FILE  default $DATA_DIR/studio.sqlite (SQLite, when DATABASE_URL is unset);
// - DATABASE_URL   postgres://… or postgresql://…: PostgreSQL instead (pg_dump / pg_restore);
// - STORAGE_URL    unset, `file://` ($DATA_DIR/media), `file:///absolute/folder`, or
//                  `s3://bucket?endpoint=…&region=…&force_path_style=true&prefix=…` with credentials
//                  from the standard AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION).
// SESSION_SECRET unset means the server keeps its secret in $DATA_DIR/session-secret: it is backed up
// and restored with the rest (it signs sessions and seals tokens).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export function readSettings(env = process.env) {
  const text = (name) => (env[name] ?? "").trim();
  const dataDir = path.resolve(text("DATA_DIR") || "./data");
  const databaseUrl = text("DATABASE_URL");
  if (databaseUrl && !/^postgres(ql)?:\/\//i.test(databaseUrl)) throw new Error("DATABASE_URL must be a postgres:// or postgresql:// URL");
  const database = databaseUrl
    ? { engine: "postgres", url: databaseUrl }
    : { engine: "sqlite", file: path.resolve(text("DATABASE_FILE") || path.join(dataDir, "studio.sqlite")) };
  return { dataDir, database, storage: parseStorage(text("STORAGE_URL"), dataDir), sessionSecretSet: text("SESSION_SECRET") !== "" };
}

function parseStorage(raw, dataDir) {
  if (raw === "" || raw === "file://") return { kind: "file", root: path.join(dataDir, "media") };
  const url = new URL(raw);
  if (url.protocol === "file:") {
    const root = decodeURIComponent(url.pathname).replace(/\/+$/, "");
    return { kind: "file", root: root ? path.resolve(root) : path.join(dataDir, "media") };
  }
  if (url.protocol !== "s3:" || !url.hostname) throw new Error(`STORAGE_URL "${raw}": expected file:// or s3://bucket?…`);
  const prefix = (url.searchParams.get("prefix") ?? "").replace(/^\/+|\/+$/g, "");
  return {
    kind: "s3",
    bucket: url.hostname,
    prefix: prefix ? `${prefix}/` : "",
    endpoint: url.searchParams.get("endpoint") || undefined,
    region: url.searchParams.get("region") || undefined,
    forcePathStyle: url.searchParams.get("force_path_style") === "true",
  };
}

/** An S3 client as the app makes it (checksums only where required, for S3-compatible servers). */
export async function s3Client(storage) {
  const { S3Client } = await import("@aws-sdk/client-s3");
  const config = { endpoint: storage.endpoint, region: storage.region, forcePathStyle: storage.forcePathStyle };
  if (!process.env.AWS_REQUEST_CHECKSUM_CALCULATION) config.requestChecksumCalculation = "WHEN_REQUIRED";
  if (!process.env.AWS_RESPONSE_CHECKSUM_VALIDATION) config.responseChecksumValidation = "WHEN_REQUIRED";
  return new S3Client(config);
}

/**
 * The folder holding PostgreSQL's client tools (pg_dump, pg_restore, psql), found as scripts/pg-cluster.mjs
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
    for (const version of fs.readdirSync(debian).filter((v) => /^\d+(\.\d+)?$/.test(v)).sort((a, b) => Number(b) - Number(a))) {
      candidates.push(path.join(debian, version, "bin"));
    }
  }
  const found = candidates.map((dir) => path.join(dir, name)).find((file) => fs.existsSync(file));
  if (found) return found;
  const which = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  throw new Error(`${name} not found (PG_BINDIR, pg_config --bindir, /usr/lib/postgresql/*/bin, PATH): install PostgreSQL's client tools`);
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
