import path from "node:path";
import Database from "better-sqlite3";
import {
  Kysely,
  Migrator,
  PostgresDialect,
  sql,
  SqliteDialect,
  type LogEvent,
  type Migration,
  type MigrationProvider,
} from "kysely";
import { cachingStatements, createPostgresPool, openSqlite } from "./db-dialect.server";
import { engineOf, type DatabaseEngine } from "../../../db/portable";
import { StripNulPlugin } from "./portable-sql.server";
import type { Database as Schema } from "./db-schema";
import { env, type Settings } from "~/lib/settings/env.server";
import { makePrivateDir, makePrivateSqliteFiles } from "~/lib/storage/private-files.server";
import { errorTypeOf, recordSpan, tracingEnabled } from "~/lib/observe/trace.server";

/**
 * The database, with an explicit life cycle: importing this module opens nothing. The server entry
 * (server/index.ts through the build's `startApp`) calls `openDatabase()` — open and migrate —
 * before it listens and `closeDatabase()` when it stops; unit tests do the same in tests/unit/setup.ts.
 * Models keep importing `db`, which answers for whichever database is open and says so clearly when
 * none is. The dialect comes from `settings.database.engine` (only SQLite today; the next step adds
 * PostgreSQL there, with the same `db`).
 */

/**
 * Migrations are bundled into the server build through import.meta.glob, so the production server
 * needs no TypeScript loader and no migrations folder at run time.
 */
const migrationModules = import.meta.glob<Migration>("../../../db/migrations/*.ts", { eager: true });

const bundledMigrations: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {};
    for (const [file, module] of Object.entries(migrationModules)) {
      migrations[path.basename(file, ".ts")] = module;
    }
    return migrations;
  },
};

/**
 * The SQLite file (its folder made if missing) with the app's pragmas (openSqlite in
 * db-dialect.server.ts), behind the bounded cache of prepared statements: Kysely's SqliteDriver
 * prepares every query it runs, and the same few SQL texts come back on every request. The folder is
 * 0700 (DATA_DIR's narrowed when older) and the database, -wal and -shm 0600 (private-files.server.ts).
 */
function openCachedSqlite(file: string, dataDir: string) {
  makePrivateDir(path.dirname(file), { restrictExisting: path.resolve(path.dirname(file)) === path.resolve(dataDir) });
  makePrivateSqliteFiles(file);
  const sqlite = openSqlite(file);
  makePrivateSqliteFiles(file);
  return cachingStatements(sqlite);
}

export async function migrateToLatest(database: Kysely<Schema>) {
  const migrator = new Migrator({ db: database, provider: bundledMigrations });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === "Error") console.error(`[studio] migration ${result.migrationName} failed`);
  }
  if (error) throw error;
}

/** The first keyword of a statement and the table it works on (at the top level, not a subquery's). */
export function statementOf(text: string): { operation: string; table: string | null } {
  const operation = (/^\s*([a-z]+)/i.exec(text)?.[1] ?? "").toUpperCase();
  const word = operation === "INSERT" ? "into" : operation === "UPDATE" ? "update" : "from";
  let depth = 0;
  for (const match of text.matchAll(new RegExp(`[()]|\\b${word}\\s+"?([\\w.]+)`, "gi"))) {
    if (match[0] === "(") depth++;
    else if (match[0] === ")") depth--;
    else if (depth === 0) return { operation, table: match[1] };
  }
  return { operation, table: null };
}

/** SQL longer than this is cut in a span (a batch's placeholders). */
const QUERY_TEXT_MAX = 4096;

/**
 * Kysely's log hook as spans, only while traces are on (docs/decisions/0089): each query and its
 * error, a child of the request's span, named `SELECT content_items`. The text has placeholders
 * only; the parameters are never read. It must not throw: Kysely would fail the query.
 */
function querySpans(system: "sqlite" | "postgresql") {
  return (event: LogEvent) => {
    try {
      const text = event.query.sql;
      const { operation, table } = statementOf(text);
      const attributes = {
        "db.system.name": system,
        "db.query.text": text.length > QUERY_TEXT_MAX ? text.slice(0, QUERY_TEXT_MAX) : text,
        ...(operation ? { "db.operation.name": operation } : {}),
        ...(table ? { "db.collection.name": table } : {}),
      };
      const name = operation ? (table ? `${operation} ${table}` : operation) : system;
      recordSpan(
        name,
        attributes,
        event.queryDurationMillis,
        event.level === "error" ? errorTypeOf(event.error) : undefined,
      );
    } catch {
      // A span lost is better than a query failed.
    }
  };
}

function createDatabase(settings: Settings): Kysely<Schema> {
  const { database } = settings;
  switch (database.engine) {
    case "sqlite":
      return new Kysely<Schema>({
        dialect: new SqliteDialect({ database: openCachedSqlite(database.file, settings.dataDir) }),
        log: tracingEnabled() ? querySpans("sqlite") : undefined,
      });
    case "postgres":
      // One pool per instance; int8 (sizes, counts) read as numbers (see db-dialect.server.ts).
      // StripNulPlugin: PostgreSQL refuses U+0000 in text (22021); the models strip it from what people
      // type, and this drops any left in a string parameter instead of answering 500.
      currentPool = createPostgresPool(database.url);
      return new Kysely<Schema>({
        dialect: new PostgresDialect({ pool: currentPool }),
        plugins: [new StripNulPlugin()],
        log: tracingEnabled() ? querySpans("postgresql") : undefined,
      });
  }
}

let current: Kysely<Schema> | null = null;
/** The open PostgreSQL pool (null on SQLite), for its gauges. */
let currentPool: ReturnType<typeof createPostgresPool> | null = null;
/** The open SQLite database's file (null on PostgreSQL): bulk readers open their own connection to it. */
let currentSqliteFile: string | null = null;
let opening: Promise<Kysely<Schema>> | null = null;

/**
 * Opens the database the settings name and brings its schema up to date; the server does not answer
 * before this resolves. Calling it again while open returns the open database.
 */
export function openDatabase(settings: Settings = env): Promise<Kysely<Schema>> {
  if (current) return Promise.resolve(current);
  opening ??= (async () => {
    const database = createDatabase(settings);
    try {
      await migrateToLatest(database);
    } catch (error) {
      currentPool = null;
      await database.destroy();
      throw error;
    }
    current = database;
    currentSqliteFile = settings.database.engine === "sqlite" ? settings.database.file : null;
    return database;
  })().finally(() => {
    opening = null;
  });
  return opening;
}

/** Closes the open database (nothing to do when none is); `db` then refuses queries until opened again. */
export async function closeDatabase(): Promise<void> {
  if (opening) await opening.catch(() => undefined);
  const database = current;
  current = null;
  currentSqliteFile = null;
  currentPool = null;
  await database?.destroy();
}

/**
 * The PostgreSQL pool's connections now (the metrics' db_client_connection_* gauges): idle, all
 * open, the most it may open, and queries waiting for one. Null on SQLite or with no database open.
 */
export function databasePoolStats(): { idle: number; total: number; max: number; waiting: number } | null {
  const pool = current ? currentPool : null;
  if (!pool) return null;
  return { idle: pool.idleCount, total: pool.totalCount, max: pool.options.max ?? 10, waiting: pool.waitingCount };
}

/** Whether a database is open (GET /api/health, the life cycle). */
export function databaseIsOpen(): boolean {
  return current !== null;
}

function openOrThrow(): Kysely<Schema> {
  if (!current) {
    throw new Error(
      "The database is not open: the server opens it at start (openDatabase() in app/lib/db/db.server.ts).",
    );
  }
  return current;
}

/**
 * The open database, for the models. A stand-in that forwards to the database opened by
 * `openDatabase()` (Kysely keeps its state in private fields, so methods are bound to it).
 */
export const db: Kysely<Schema> = new Proxy({} as Kysely<Schema>, {
  get(_target, property) {
    const database = openOrThrow();
    const value = Reflect.get(database, property, database);
    return typeof value === "function" ? value.bind(database) : value;
  },
  has(_target, property) {
    return Reflect.has(openOrThrow(), property);
  },
});

/** A bulk reader's SQLite page cache, in KiB (the shared connection's is 16 MB). */
const BULK_READ_CACHE_KIB = 2048;

/**
 * A connection for one long read of many rows (the account export), closed with `close()` when done.
 * On SQLite it is a read-only connection of its own with a small page cache, so the pages it walks
 * through once do not fill the shared connection's 16 MB cache, which serves every other request and
 * the process then keeps (docs/decisions/0078, fifth follow-up). Each query is its own read, as on the
 * shared connection. On PostgreSQL (a pool already) and an in-memory SQLite it is the open database.
 */
export function openBulkReader(): { db: Kysely<Schema>; close: () => Promise<void> } {
  const database = openOrThrow();
  const file = currentSqliteFile;
  if (!file || file === ":memory:" || file.startsWith("file:")) return { db: database, close: async () => {} };
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma(`cache_size = -${BULK_READ_CACHE_KIB}`);
  const reader = new Kysely<Schema>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: tracingEnabled() ? querySpans("sqlite") : undefined,
  });
  return { db: reader, close: () => reader.destroy() };
}

/** The engine of the open database, else the one the settings name (GET /api/health: "sqlite" or "postgres"). */
export function databaseEngine(settings: Settings = env): DatabaseEngine {
  return current ? engineOf(current) : settings.database.engine;
}

/** Whether the database answers a trivial query (GET /api/health). */
export async function databaseIsReachable(): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
