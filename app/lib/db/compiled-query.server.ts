import {
  NoResultError,
  type Compilable,
  type CompiledQuery,
  type Kysely,
  type KyselyPlugin,
  type QueryNode,
  type QueryResult,
  type RootOperationNode,
} from "kysely";

/**
 * Queries built and compiled once per open database, then run with each call's values (docs/performance.md:
 * building and compiling the same few queries on every request cost several % of the server's CPU).
 *
 *   const userById = compileOnce((db: Kysely<Database>, p: { id: string }) =>
 *     db.selectFrom("users").select(["id", "email"]).where("id", "=", p.id));
 *   const user = await userById.first(db, { id });        // typed { id: string; email: string } | undefined
 *
 * How: the first run on a database calls `build` with stand-ins for the parameters (one object per
 * name), compiles the query through that database (its dialect and plugins), and remembers at which
 * positions of `compiled.parameters` each stand-in ended up; every run then copies those parameters,
 * puts the call's values in those positions and executes the result with `db.executeQuery`. Values the
 * query itself holds (`limit(1)`, a constant in a where) stay as compiled. Runs through a transaction
 * of that database use the same compiled query.
 *
 * Rules for `build`, checked where they can be:
 * - Pass each `p.name` straight into the query as a value (`where(col, "=", p.x)`, `set({ col: p.x })`,
 *   `limit(p.n)`); never inspect it in JS (`if (p.x)`, `p.x.trim()`): it is a stand-in, not the value.
 *   A stand-in that does not become a parameter of the compiled query throws on the first run.
 * - The SQL's shape must not depend on the values. Where it does (optional limit / offset), name the
 *   shape as the variant: one compiled query per variant (`build(db, p, variant)`, `run(db, p, variant)`).
 * - Values are scalars (string, number, bigint, null, bytes); `undefined` throws (Kysely would drop
 *   an undefined column from `set()`, changing the SQL). Lists (`in`) vary the SQL: not supported.
 *
 * The cache is per database: keyed on the dialect adapter, which each Kysely instance creates for
 * itself and shares with its transactions, so closing and reopening the database (or switching
 * engines, as the tests do) compiles afresh, and the old entries go with the old instance.
 *
 * Plugins transform a query when it is compiled, so they have seen the stand-ins, not the values. A
 * plugin whose whole effect is a pure function of each parameter value says so by implementing
 * `transformParameter` (StripNulPlugin, on PostgreSQL: NUL stripped from strings); it is applied to
 * every value put in. With any other plugin on the database, nothing is cached: every run builds and
 * compiles the query with its real values, exactly as Kysely would.
 */

/** A plugin whose only effect on a query is `transformParameter` applied to each parameter value. */
export interface ParameterPlugin extends KyselyPlugin {
  transformParameter(value: unknown): unknown;
}

/** What a parameter may be: what both better-sqlite3 and pg bind. */
export type ParameterValue = string | number | bigint | null | Uint8Array;
/** `undefined` is allowed by the type for parameters a variant does not use; a used one must be set. */
export type QueryParameters = Record<string, ParameterValue | undefined>;

/** A parameter's stand-in while the query is built: a plain object Kysely binds as a value. */
class Placeholder {
  constructor(readonly name: string) {}
}

interface Template {
  /** The plugins it was compiled with (a transaction has a copy of its database's list). */
  readonly plugins: readonly KyselyPlugin[];
  /** null: a plugin that is not a ParameterPlugin; build and compile on every run. */
  readonly compiled: {
    readonly sql: string;
    readonly query: RootOperationNode;
    readonly queryId: CompiledQuery["queryId"];
    readonly parameters: readonly unknown[];
    /** [position in parameters, parameter name] */
    readonly slots: ReadonlyArray<readonly [number, string]>;
    readonly parameterPlugins: readonly ParameterPlugin[];
  } | null;
}

const isParameterPlugin = (plugin: KyselyPlugin): plugin is ParameterPlugin =>
  typeof (plugin as Partial<ParameterPlugin>).transformParameter === "function";

const samePlugins = (a: readonly KyselyPlugin[], b: readonly KyselyPlugin[]) =>
  a.length === b.length && a.every((plugin, i) => plugin === b[i]);

/** The variant argument: none for queries of one shape, else the shape's name. */
type VariantArgument<V extends string> = [V] extends [never] ? [] : [variant: V];

export interface CompiledOnce<DB, P extends QueryParameters, R, V extends string> {
  /** Kysely's QueryResult: rows, and numAffectedRows for writes. */
  execute(database: Kysely<DB>, params: P, ...variant: VariantArgument<V>): Promise<QueryResult<R>>;
  /** The rows (a select's `.execute()`). */
  all(database: Kysely<DB>, params: P, ...variant: VariantArgument<V>): Promise<R[]>;
  /** The first row or undefined (`.executeTakeFirst()`). */
  first(database: Kysely<DB>, params: P, ...variant: VariantArgument<V>): Promise<R | undefined>;
  /** The first row, else Kysely's NoResultError (`.executeTakeFirstOrThrow()`). */
  firstOrThrow(database: Kysely<DB>, params: P, ...variant: VariantArgument<V>): Promise<R>;
  /** The rows an update, insert or delete without `returning` touched (`Number(result.numUpdatedRows)`'s source). */
  affectedRows(database: Kysely<DB>, params: P, ...variant: VariantArgument<V>): Promise<bigint>;
}

/**
 * A query compiled once per database (and variant); see above. `build` gets the database, the
 * parameters' stand-ins typed as the values, and the variant.
 */
export function compileOnce<DB, P extends QueryParameters, R, V extends string = never>(
  build: (database: Kysely<DB>, params: P, variant: V) => Compilable<R>,
): CompiledOnce<DB, P, R, V> {
  /** adapter (one per Kysely instance, shared with its transactions) -> variant -> template */
  const templates = new WeakMap<object, Map<string, Template>>();

  function template(database: Kysely<DB>, variant: V): Template {
    const executor = database.getExecutor();
    let byVariant = templates.get(executor.adapter);
    if (!byVariant) templates.set(executor.adapter, (byVariant = new Map()));
    const known = byVariant.get(variant);
    if (known && samePlugins(known.plugins, executor.plugins)) return known;
    const made = compileTemplate(database, variant, executor.plugins);
    byVariant.set(variant, made);
    return made;
  }

  function compileTemplate(database: Kysely<DB>, variant: V, plugins: readonly KyselyPlugin[]): Template {
    if (!plugins.every(isParameterPlugin)) return { plugins: [...plugins], compiled: null };
    const placeholders = new Map<string, Placeholder>();
    const standIns = new Proxy({} as P, {
      get(_target, name) {
        if (typeof name !== "string") return undefined;
        let placeholder = placeholders.get(name);
        if (!placeholder) placeholders.set(name, (placeholder = new Placeholder(name)));
        return placeholder;
      },
    });
    const compiled = build(database, standIns, variant).compile();
    const slots: Array<readonly [number, string]> = [];
    compiled.parameters.forEach((value, position) => {
      if (value instanceof Placeholder) slots.push([position, value.name]);
    });
    for (const name of placeholders.keys()) {
      if (!slots.some(([, slotName]) => slotName === name)) {
        throw new Error(
          `compileOnce: the parameter "${name}" did not become a parameter of the compiled query; pass it straight into the query as a value`,
        );
      }
    }
    return {
      plugins: [...plugins],
      compiled: {
        sql: compiled.sql,
        query: compiled.query,
        queryId: compiled.queryId,
        parameters: compiled.parameters,
        slots,
        parameterPlugins: plugins as ParameterPlugin[],
      },
    };
  }

  /** The compiled query with this call's values: from the template, or (plugins it cannot serve) built afresh. */
  function compiledFor(database: Kysely<DB>, params: P, variant: V): CompiledQuery<R> {
    const { compiled } = template(database, variant);
    if (!compiled) return build(database, params, variant).compile();
    const parameters = compiled.parameters.slice();
    for (const [position, name] of compiled.slots) {
      let value: unknown = params[name];
      if (value === undefined) throw new TypeError(`compileOnce: the parameter "${name}" is undefined`);
      for (const plugin of compiled.parameterPlugins) value = plugin.transformParameter(value);
      parameters[position] = value;
    }
    return { sql: compiled.sql, query: compiled.query, queryId: compiled.queryId, parameters };
  }

  const variantOf = (variantArgument: VariantArgument<V>) => (variantArgument[0] ?? "") as V;

  function execute(database: Kysely<DB>, params: P, ...variant: VariantArgument<V>): Promise<QueryResult<R>> {
    return database.executeQuery(compiledFor(database, params, variantOf(variant)));
  }

  return {
    execute,
    async all(database, params, ...variant) {
      return (await execute(database, params, ...variant)).rows;
    },
    async first(database, params, ...variant) {
      const { rows } = await execute(database, params, ...variant);
      return rows[0];
    },
    async firstOrThrow(database, params, ...variant) {
      const query = compiledFor(database, params, variantOf(variant));
      const { rows } = await database.executeQuery(query);
      if (rows[0] === undefined) throw new NoResultError(query.query as QueryNode);
      return rows[0];
    },
    async affectedRows(database, params, ...variant) {
      return (await execute(database, params, ...variant)).numAffectedRows ?? 0n;
    },
  };
}
