import Database from "better-sqlite3";
import { PostgresDialect, SqliteDialect, type Dialect } from "kysely";
import pg from "pg";
import type { DatabaseEngine } from "../../../db/portable";
import { registerSearchTextCheck } from "~/lib/search-text-check.server";

/**
 * Which database the app runs on, and how it is opened (docs/decisions/0003): `DATABASE_URL=postgres://…`
 * selects PostgreSQL (`pg`); unset, the embedded SQLite file stays the default. Everything here is
 * engine plumbing: no table knowledge. The SQL the models write to run on both engines (error codes,
 * row locks, keyed locks, text without NUL) is app/lib/db/portable-sql.server.ts's.
 */

/**
 * The engine a `DATABASE_URL` names: `postgres://` or `postgresql://` is PostgreSQL; unset or empty
 * is SQLite (the file in DATA_DIR). Anything else is a configuration mistake and throws, rather than
 * silently running on a local SQLite file. Pure: pass `process.env.DATABASE_URL`.
 */
export function databaseEngineFromUrl(url?: string): DatabaseEngine {
  const value = url?.trim();
  if (!value) return "sqlite";
  if (/^postgres(ql)?:\/\//i.test(value)) return "postgres";
  throw new Error(
    `DATABASE_URL must be a postgres:// or postgresql:// URL (or unset for the embedded SQLite database), got "${redactUrl(value)}"`,
  );
}

/** A connection URL with its password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}

/** The SQLite file with the app's pragmas (WAL, foreign keys, a 5 s busy timeout, synchronous NORMAL) and the search's SQL function. */
export function openSqlite(file: string): Database.Database {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  registerSearchTextCheck(sqlite);
  return sqlite;
}

/** How many prepared statements the SQLite statement cache keeps (distinct SQL texts; the app has a few hundred at most). */
export const STATEMENT_CACHE_SIZE = 500;

/** What Kysely's SqliteDriver uses of a better-sqlite3 database: `prepare` for every query, `close` on destroy. */
export interface CachingSqliteDatabase {
  prepare(sql: string): Database.Statement;
  close(): void;
  /** The underlying better-sqlite3 database (pragmas, tests). */
  readonly sqlite: Database.Database;
  /** How many statements are cached now (tests). */
  readonly cachedStatements: number;
}

/**
 * better-sqlite3 with a bounded cache of prepared statements, one per SQL text, for SqliteDialect:
 * Kysely's SqliteDriver calls `prepare(sql)` for every query, and preparing (parsing and planning the
 * SQL) was ~5% of the server's CPU on GET /api/content. Reusing a Statement is safe: better-sqlite3 is
 * synchronous and Kysely runs one query at a time on its one SQLite connection (a stream holds the
 * connection until it ends). Should a cached statement still be iterating anyway (`busy`), a fresh one
 * is prepared for this query instead. Least recently used statements leave the cache first (a Map
 * keeps insertion order; a hit moves its entry to the end); an evicted Statement is finalised by
 * better-sqlite3 when it is collected. A schema change needs nothing: SQLite re-prepares a statement
 * whose schema changed on its next run.
 */
export function cachingStatements(sqlite: Database.Database, size = STATEMENT_CACHE_SIZE): CachingSqliteDatabase {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`cachingStatements: size must be a positive integer, got ${size}`);
  const statements = new Map<string, Database.Statement>();
  return {
    prepare(sql: string): Database.Statement {
      const cached = statements.get(sql);
      if (cached) {
        if (cached.busy) return sqlite.prepare(sql);
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
    sqlite,
    get cachedStatements() {
      return statements.size;
    },
  };
}

export const DEFAULT_POOL_SIZE = 10;

/** int8 (count(*), bigint columns such as media sizes and login_attempts.id) as a JS number. */
function parseInt8(value: string): number {
  const number = Number(value);
  // Sizes and counts stay far below 2^53; a larger value is a bug, not something to round silently.
  if (!Number.isSafeInteger(number)) throw new RangeError(`int8 value ${value} does not fit a JS number exactly`);
  return number;
}

/** The pool's type parsers: PostgreSQL's defaults except int8 (OID 20), which pg would give as a string. */
const typeParsers = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 && format !== "binary"
      ? parseInt8
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * A `pg` pool for `url` with int8 parsed as a number (per pool: the global pg.types stay untouched).
 * A client's error (the server restarted, a connection was killed), idle or checked out, is logged,
 * not thrown: an unhandled 'error' event would end the process; the pool replaces the client on next use.
 */
export function createPostgresPool(url: string, options: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? DEFAULT_POOL_SIZE,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: "creative-ai-studio",
    types: typeParsers,
  });
  // An idle client's error reaches the pool's 'error' (which must have a listener); it is logged by the
  // client's own listener below, which every client has.
  pool.on("error", () => {});
  // A client that is checked out (between queries of a transaction, or between a request's queries)
  // emits 'error' too when its connection breaks (57P01 on a server restart, ECONNRESET): without a
  // listener of its own that ends the process. Logged here; the query in flight fails on its own,
  // and the pool drops the broken client when it is released (pg-pool checks `_queryable`).
  pool.on("connect", (client) => {
    client.on("error", (error) => console.error(`[db] a PostgreSQL connection failed: ${error.message}`));
  });
  return pool;
}

export interface DialectOptions {
  /** `process.env.DATABASE_URL`: postgres(ql):// for PostgreSQL; unset for SQLite. */
  url?: string;
  /** The SQLite file (required when `url` is unset), e.g. `$DATA_DIR/studio.sqlite`. */
  sqliteFile?: string;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
}

/**
 * The Kysely dialect for the configured engine: SqliteDialect over better-sqlite3 (opened now, with
 * the pragmas above and the statement cache) or PostgresDialect over a `pg` pool (connections opened on first use).
 * `kysely.destroy()` closes either.
 */
export function createDialect(options: DialectOptions): Dialect {
  if (databaseEngineFromUrl(options.url) === "postgres") {
    return new PostgresDialect({ pool: createPostgresPool(options.url!.trim(), { max: options.poolSize }) });
  }
  if (!options.sqliteFile)
    throw new Error("createDialect: sqliteFile is required when DATABASE_URL is not a postgres:// URL");
  return new SqliteDialect({ database: cachingStatements(openSqlite(options.sqliteFile)) });
}
