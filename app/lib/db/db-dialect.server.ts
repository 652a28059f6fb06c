import Database from "better-sqlite3";
import {
  OperationNodeTransformer,
  PostgresDialect,
  sql,
  SqliteDialect,
  type Dialect,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type SelectQueryBuilder,
  type UnknownRow,
  type ValueNode,
} from "kysely";
import pg from "pg";
import { engineOf, type DatabaseEngine } from "../../../db/portable";
import { registerSearchTextCheck } from "~/lib/search-text-check.server";

/**
 * Which database the app runs on, and the few places where SQLite and PostgreSQL need different SQL
 * (docs/decisions/0003). `DATABASE_URL=postgres://…` selects PostgreSQL (`pg`); unset, the
 * embedded SQLite file stays the default. Everything here is engine plumbing: no table knowledge.
 *
 * Portable by construction (no helper needed), for the model owners:
 * - Upserts: Kysely's `.onConflict((oc) => oc.column("x").doNothing())` and
 *   `.onConflict((oc) => oc.columns([...]).doUpdateSet({ col: (eb) => eb.ref("excluded.col") }))` compile
 *   to `on conflict (…) do nothing / do update set …` on both engines (SQLite ≥ 3.24). Do NOT use
 *   `.orIgnore()` / `.orReplace()` (SQLite's `insert or ignore/replace`: PostgreSQL rejects them). With
 *   `insert … select … on conflict` SQLite needs a WHERE in the select (`where true`) to parse it.
 * - `returning(...)` works on both (SQLite ≥ 3.35).
 * - `numUpdatedRows` / `numDeletedRows` / `numInsertedOrUpdatedRows` are bigint on both: compare with
 *   `Number(result.numUpdatedRows) === 1`.
 * - Dates: timestamps are ISO-8601 text; compute windows in JS (`nowIso(new Date(now - ms))`) and
 *   compare as text. Never `datetime('now')`, `now()`, `julianday`, `interval`.
 * - Booleans are integers 0/1 on both (not PostgreSQL's boolean).
 * - count(*) is int8 on PostgreSQL: parsed as a JS number by the pool below (as SQLite answers it).
 *   sum() over bigint is `numeric` and still arrives as a string: wrap it in Number().
 * - Transactions: on SQLite Kysely runs every query through one connection, so a transaction blocks
 *   the whole process's other queries until it ends; on PostgreSQL each transaction holds one pool
 *   connection, and other requests run beside it (READ COMMITTED). A conditional UPDATE
 *   (`… where version = ?`, then check numUpdatedRows) is the portable compare-and-set. A failed
 *   statement aborts a PostgreSQL transaction (25P02): do not catch a unique violation inside a
 *   transaction and carry on; insert outside it, or use `onConflict`.
 */
export { engineOf, type DatabaseEngine };

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

// ---- Errors ---------------------------------------------------------------------------------------

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * A unique (or primary key) constraint refused the write: better-sqlite3's SQLITE_CONSTRAINT_UNIQUE /
 * SQLITE_CONSTRAINT_PRIMARYKEY, PostgreSQL's 23505 unique_violation. By code, not by message.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = errorCode(error);
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** A foreign key refused the write (e.g. the owner was deleted meanwhile): SQLITE_CONSTRAINT_FOREIGNKEY / 23503. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = errorCode(error);
  return code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}

/**
 * A conflict worth retrying the whole transaction for: SQLite busy past the busy timeout
 * (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT when a read transaction tries to write after another writer),
 * PostgreSQL's 40001 serialization_failure and 40P01 deadlock_detected.
 */
export function isRetryableConflict(error: unknown): boolean {
  const code = errorCode(error);
  return code === "SQLITE_BUSY" || code === "SQLITE_BUSY_SNAPSHOT" || code === "40001" || code === "40P01";
}

// ---- Row locks ------------------------------------------------------------------------------------

// Any database: these helpers are used on the app's and on the migrations' (Kysely<any>, whose
// tables are what each migration made them).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDatabase = Kysely<any>;
type EngineSource = DatabaseEngine | AnyDatabase;
const engineFrom = (source: EngineSource): DatabaseEngine => (typeof source === "string" ? source : engineOf(source));

/**
 * Locks the selected rows until the transaction ends (`FOR UPDATE`) on PostgreSQL; unchanged on
 * SQLite, which has no row locks (and needs none: one writer at a time, and Kysely's SQLite driver
 * runs a transaction alone on its connection). Use inside `db.transaction()`, e.g. to serialise
 * "count then insert" per user by locking the user's row first.
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  engine: EngineSource,
): SelectQueryBuilder<DB, TB, O> {
  return engineFrom(engine) === "postgres" ? query.forUpdate() : query;
}

/**
 * For claiming work rows (video jobs) so that several instances never take the same one:
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL (rows another transaction is claiming are skipped, not
 * waited for); unchanged on SQLite, where the claim itself must be a conditional UPDATE
 * (`update … set runner_id = ? where id = ? and runner_id is ? …`, then numUpdatedRows === 1).
 *
 * PostgreSQL, inside one transaction:
 *   const ids = await forUpdateSkipLocked(trx.selectFrom("video_jobs").select("id").where(…).limit(n), trx).execute();
 *   await trx.updateTable("video_jobs").set({ runner_id, heartbeat_at }).where("id", "in", ids.map((r) => r.id)).execute();
 * Or as one statement: `update … where id in (<that select>) returning …`. Keep the conditional
 * UPDATE's WHERE on both engines anyway: it is what makes the SQLite path safe and costs nothing.
 */
export function forUpdateSkipLocked<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  engine: EngineSource,
): SelectQueryBuilder<DB, TB, O> {
  return engineFrom(engine) === "postgres" ? query.forUpdate().skipLocked() : query;
}

// ---- NUL characters ---------------------------------------------------------------------------------

const NUL = /\u0000/g;

/**
 * Text without U+0000. PostgreSQL refuses NUL in `text` (22021 "invalid byte sequence for encoding
 * UTF8: 0x00") where SQLite stores it, so free text is stripped of it before it reaches either engine
 * (the same stored value on both). Use in the models' schemas: `.transform(withoutNul)` / `.overwrite(withoutNul)`.
 */
export function withoutNul(text: string): string {
  return text.includes("\u0000") ? text.replace(NUL, "") : text;
}

/**
 * The safety net under the models' own stripping, for PostgreSQL: every string parameter of every query
 * loses its NUL characters, so a NUL that some input path forgot becomes a stripped value (as the
 * models strip it) rather than a 500. SQLite needs none (and keeps its exact behaviour).
 */
class StripNulTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const transformed = super.transformValue(node);
    return typeof transformed.value === "string" && transformed.value.includes("\u0000")
      ? { ...transformed, value: withoutNul(transformed.value) }
      : transformed;
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    const transformed = super.transformPrimitiveValueList(node);
    return transformed.values.some((value) => typeof value === "string" && value.includes("\u0000"))
      ? {
          ...transformed,
          values: transformed.values.map((value) => (typeof value === "string" ? withoutNul(value) : value)),
        }
      : transformed;
  }
}

/**
 * Also a ParameterPlugin (app/lib/db/compiled-query.server.ts): its whole effect is `transformParameter`
 * on each parameter value, which is what a query compiled once applies to the values it puts in
 * (the stand-ins it was compiled with are objects, which the transformer leaves alone).
 */
export class StripNulPlugin implements KyselyPlugin {
  readonly #transformer = new StripNulTransformer();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId);
  }
  /** What the transformer does to one value (a ValueNode's, or one of a PrimitiveValueList's). */
  transformParameter(value: unknown): unknown {
    return typeof value === "string" ? withoutNul(value) : value;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

// ---- Keyed locks ----------------------------------------------------------------------------------

/**
 * Serialises transactions that work on the same logical key (e.g. one email's login attempts) when no
 * row exists to lock: PostgreSQL's transaction-level advisory lock on (namespace, key), both hashed to
 * int4, released at commit or rollback; a no-op on SQLite, where a transaction runs alone anyway.
 * Call first inside `db.transaction()`, on the transaction.
 */
export async function lockKey(trx: AnyDatabase, namespace: string, key: string): Promise<void> {
  if (engineOf(trx) !== "postgres") return;
  await sql`select pg_advisory_xact_lock(hashtext(${namespace}), hashtext(${key}))`.execute(trx);
}
