import {
  OperationNodeTransformer,
  sql,
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
import { engineOf, type DatabaseEngine } from "../../../db/portable";

/**
 * SQL that runs on SQLite and PostgreSQL alike (docs/decisions/0003), for the models: the engines'
 * error codes told apart, row locks, keyed locks and text without NUL. Which engine runs, and its
 * connection, is app/lib/db/db-dialect.server.ts.
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
 * - count(*) is int8 on PostgreSQL: parsed as a JS number by the pool (db-dialect.server.ts), as SQLite answers it.
 *   sum() over bigint is `numeric` and still arrives as a string: wrap it in Number().
 * - Transactions: on SQLite Kysely runs every query through one connection, so a transaction blocks
 *   the whole process's other queries until it ends; on PostgreSQL each transaction holds one pool
 *   connection, and other requests run beside it (READ COMMITTED). A conditional UPDATE
 *   (`… where version = ?`, then check numUpdatedRows) is the portable compare-and-set. A failed
 *   statement aborts a PostgreSQL transaction (25P02): do not catch a unique violation inside a
 *   transaction and carry on; insert outside it, or use `onConflict`.
 */

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
