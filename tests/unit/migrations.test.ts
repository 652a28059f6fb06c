import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kysely, Migrator, NO_MIGRATIONS, sql, type Migration, type MigrationProvider } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDialect, databaseEngineFromUrl } from "~/lib/db/db-dialect.server";
import { engineOf, type DatabaseEngine } from "../../db/portable";
import { forUpdate, forUpdateSkipLocked, isForeignKeyViolation, isUniqueViolation } from "~/lib/db/portable-sql.server";
import { postgresAvailable, startPgCluster, type PgCluster } from "../harness/pg-cluster.mjs";

/**
 * Every migration in db/migrations, up, down and up again, on a fresh SQLite database and on
 * PostgreSQL (decision 0015: "a test runs every migration up on both"), and the two resulting schemas
 * compared table by table and column by column.
 *
 * PostgreSQL: TEST_DATABASE_URL (postgres://…) when set (the test works in a schema of its own and
 * drops it); otherwise a throwaway cluster from tests/harness/pg-cluster.mjs when PostgreSQL's binaries are
 * installed. Without either, the PostgreSQL half is left out with a note (npm test keeps passing on a
 * machine without PostgreSQL; `npm run test:pg` / CI install it).
 */

// The same loader as app/lib/db/db.server.ts: whatever the server would run as a migration, this runs.
const migrationModules = import.meta.glob<Migration>("../../db/migrations/*.ts", { eager: true });
const migrations: Record<string, Migration> = Object.fromEntries(
  Object.entries(migrationModules).map(([file, module]) => [path.basename(file, ".ts"), module]),
);
const provider: MigrationProvider = { getMigrations: async () => migrations };
const migrationNames = Object.keys(migrations).sort();
const LAST_ORIGINAL_MIGRATION = "0006_registration_attempts";

const testDatabaseUrl = process.env.TEST_DATABASE_URL?.trim();
const postgresSource: "TEST_DATABASE_URL" | "throwaway cluster" | null =
  testDatabaseUrl && databaseEngineFromUrl(testDatabaseUrl) === "postgres"
    ? "TEST_DATABASE_URL"
    : postgresAvailable()
      ? "throwaway cluster"
      : null;
if (!postgresSource) {
  console.warn(
    "[migrations.test] PostgreSQL half NOT RUN: TEST_DATABASE_URL is not a postgres:// URL and no PostgreSQL binaries were found " +
      "(pg_config --bindir, /usr/lib/postgresql/*/bin, PATH). Install Debian's postgresql or set TEST_DATABASE_URL to run it.",
  );
}
const engines: DatabaseEngine[] = postgresSource ? ["sqlite", "postgres"] : ["sqlite"];

interface Column {
  name: string;
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}
interface Schema {
  tables: Record<string, Column[]>;
  indexes: string[];
}
const isAppTable = (name: string) => !name.startsWith("kysely_") && !name.startsWith("sqlite_");

async function readSchema(db: Kysely<any>): Promise<Schema> {
  const tables: Record<string, Column[]> = {};
  if (engineOf(db) === "sqlite") {
    const { rows } = await sql<{
      table: string;
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>`
      select m.name as "table", c.name, c.type, c."notnull", c.dflt_value, c.pk
      from sqlite_master m join pragma_table_info(m.name) c
      where m.type = 'table' order by m.name, c.cid`.execute(db);
    // A full-text index is a virtual table (FTS5) with shadow tables on SQLite, an index on PostgreSQL
    // (0009): counted as an index of that name, its tables left out.
    const virtual = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and sql like 'CREATE VIRTUAL TABLE%' order by name`.execute(
      db,
    );
    // A view of the index's words (fts5vocab, 0025, 0027) holds nothing of its own: not an index.
    const searchIndexes = virtual.rows.map((r) => r.name).filter((name) => !name.endsWith("_terms"));
    const isSearchIndexTable = (table: string) =>
      searchIndexes.some((name) => table === name || table.startsWith(`${name}_`));
    for (const row of rows.filter((r) => isAppTable(r.table) && !isSearchIndexTable(r.table))) {
      // A SQLite primary key column may hold NULL unless declared not null; PostgreSQL's never does.
      (tables[row.table] ??= []).push({
        name: row.name,
        type: row.type.toLowerCase(),
        notNull: row.notnull === 1 || row.pk > 0,
        hasDefault: row.dflt_value !== null,
      });
    }
    const indexes = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'index' and sql is not null order by name`.execute(db);
    return { tables, indexes: [...indexes.rows.map((r) => r.name), ...searchIndexes].sort() };
  }
  const { rows } = await sql<{
    table: string;
    name: string;
    type: string;
    is_nullable: string;
    column_default: string | null;
  }>`
    select table_name as "table", column_name as name, data_type as type, is_nullable, column_default
    from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position`.execute(
    db,
  );
  for (const row of rows.filter((r) => isAppTable(r.table))) {
    (tables[row.table] ??= []).push({
      name: row.name,
      type: row.type,
      notNull: row.is_nullable === "NO",
      hasDefault: row.column_default !== null,
    });
  }
  // Explicitly created indexes (not the ones behind primary key and unique constraints).
  const indexes = await sql<{ name: string }>`
    select i.indexname as name from pg_indexes i
    where i.schemaname = current_schema()
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = current_schema()::regnamespace)
    order by i.indexname`.execute(db);
  return { tables, indexes: indexes.rows.map((r) => r.name).filter(isAppTable) };
}

/** Each SQLite declared type and the PostgreSQL types that hold the same values. */
const POSTGRES_TYPES_FOR: Record<string, string[]> = {
  text: ["text"],
  integer: ["integer", "bigint"],
  bigint: ["bigint"],
  real: ["double precision"],
};

function expectAllSucceeded(
  results: { migrationName: string; status: string; direction: string }[] | undefined,
  direction: "Up" | "Down",
) {
  expect(results?.every((r) => r.status === "Success" && r.direction === direction)).toBe(true);
}

interface Target {
  db: Kysely<any>;
  close(): Promise<void>;
  describe: string;
}

let cluster: PgCluster | undefined;
/** A fresh, empty database (SQLite file; PostgreSQL schema of its own) for one engine. */
async function openTarget(engine: DatabaseEngine): Promise<Target> {
  if (engine === "sqlite") {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "studio-migrations-"));
    const file = path.join(folder, "studio.sqlite");
    const db = new Kysely<any>({ dialect: createDialect({ sqliteFile: file }) });
    return {
      db,
      describe: file,
      async close() {
        await db.destroy();
        fs.rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  let url = testDatabaseUrl;
  if (postgresSource === "throwaway cluster") {
    cluster ??= await startPgCluster({ database: "studio_migrations" });
    url = cluster.url;
  }
  const schema = `migrations_test_${process.pid}_${Date.now()}`;
  const admin = new Kysely<any>({ dialect: createDialect({ url, poolSize: 1 }) });
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  // Every connection of the pool works in that schema only.
  const scoped = new URL(url!);
  scoped.searchParams.set("options", `-c search_path=${schema}`);
  const db = new Kysely<any>({ dialect: createDialect({ url: scoped.toString(), poolSize: 3 }) });
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  if (rows[0]?.schema !== schema)
    throw new Error(`search_path not applied: working in ${rows[0]?.schema}, not ${schema}`);
  return {
    db,
    describe: `${postgresSource}, schema ${schema}`,
    async close() {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
    },
  };
}

const schemas: Partial<Record<DatabaseEngine, Schema>> = {};

afterAll(async () => {
  await cluster?.stop();
});

for (const engine of engines) {
  describe(`migrations on ${engine}`, () => {
    let target: Target;
    beforeAll(async () => {
      target = await openTarget(engine);
      console.log(`[migrations.test] ${engine}: ${target.describe}`);
    });
    afterAll(async () => {
      await target?.close();
    });

    it("runs every migration up", async () => {
      expect(engineOf(target.db)).toBe(engine);
      const { error, results } = await new Migrator({ db: target.db, provider }).migrateToLatest();
      expect(error).toBeUndefined();
      expect(results?.map((r) => r.migrationName)).toEqual(migrationNames);
      expectAllSucceeded(results, "Up");
      schemas[engine] = await readSchema(target.db);
      expect(Object.keys(schemas[engine]!.tables)).toEqual(
        expect.arrayContaining([
          "users",
          "refresh_tokens",
          "login_attempts",
          "feedback",
          "content_items",
          "media_files",
          "video_jobs",
          "projects",
          "registration_attempts",
          "invitations",
        ]),
      );
    });

    it("runs every migration down, leaving no table, then up again to the same schema", async () => {
      const down = await new Migrator({ db: target.db, provider }).migrateTo(NO_MIGRATIONS);
      expect(down.error).toBeUndefined();
      expect(down.results?.map((r) => r.migrationName)).toEqual([...migrationNames].reverse());
      expectAllSucceeded(down.results, "Down");
      const empty = await readSchema(target.db);
      expect(empty.tables).toEqual({});
      expect(empty.indexes).toEqual([]);

      const up = await new Migrator({ db: target.db, provider }).migrateToLatest();
      expect(up.error).toBeUndefined();
      expectAllSucceeded(up.results, "Up");
      expect(await readSchema(target.db)).toEqual(schemas[engine]);
    });

    it("stores and reads back what the app stores, as the app reads it", async () => {
      const { db } = target;
      await db
        .insertInto("users")
        .values({ id: "u1", email: "a@example.com", password_hash: "x", created_at: "2026-01-01T00:00:00.000Z" })
        .execute();

      // login_attempts.id: generated by the database, answered by `returning` as a JS number, increasing.
      const attempt = () =>
        db
          .insertInto("login_attempts")
          .values({ email: "a@example.com", client_address: "10.0.0.1", attempted_at: "2026-01-01T00:00:00.000Z" })
          .returning("id")
          .executeTakeFirstOrThrow();
      const first = await attempt();
      const second = await attempt();
      expect(typeof first.id).toBe("number");
      expect(second.id).toBeGreaterThan(first.id);

      // Sizes beyond int4 (a 3 GiB video) come back exactly, as numbers; so do counts.
      const size = 3 * 2 ** 30;
      await db
        .insertInto("media_files")
        .values({
          id: "m1",
          user_id: "u1",
          kind: "video",
          name: "big.mp4",
          content_type: "video/mp4",
          size,
          created_at: "2026-01-01T00:00:00.000Z",
          updated_at: "2026-01-01T00:00:00.000Z",
        })
        .execute();
      const media = await db.selectFrom("media_files").select("size").where("id", "=", "m1").executeTakeFirstOrThrow();
      expect(media.size).toBe(size);
      const count = await db
        .selectFrom("login_attempts")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      expect(count.n).toBe(2);

      // Progress keeps a double's precision; defaults apply on both.
      await db
        .insertInto("video_jobs")
        .values({
          id: "j1",
          user_id: "u1",
          prompt: "p",
          status: "starting",
          provider: "local",
          created_at: "2026-01-01T00:00:00.000Z",
          updated_at: "2026-01-01T00:00:00.000Z",
        })
        .execute();
      await db.updateTable("video_jobs").set({ progress: 0.1 }).where("id", "=", "j1").execute();
      const job = await db
        .selectFrom("video_jobs")
        .select(["progress", "attempts"])
        .where("id", "=", "j1")
        .executeTakeFirstOrThrow();
      expect(job).toEqual({ progress: 0.1, attempts: 0 });

      // The engine's errors, recognised by code.
      const duplicate = await db
        .insertInto("users")
        .values({ id: "u2", email: "a@example.com", password_hash: "x", created_at: "2026-01-01T00:00:00.000Z" })
        .execute()
        .catch((e) => e);
      expect(isUniqueViolation(duplicate)).toBe(true);
      expect(isForeignKeyViolation(duplicate)).toBe(false);
      const orphan = await db
        .insertInto("content_items")
        .values({
          id: "c1",
          user_id: "nobody",
          title: "t",
          created_at: "2026-01-01T00:00:00.000Z",
          updated_at: "2026-01-01T00:00:00.000Z",
        })
        .execute()
        .catch((e) => e);
      expect(isForeignKeyViolation(orphan)).toBe(true);
      expect(isUniqueViolation(orphan)).toBe(false);

      // Row locks: FOR UPDATE (SKIP LOCKED) on PostgreSQL, nothing on SQLite; both run in a transaction.
      const claimable = (trx: Kysely<any>) =>
        trx.selectFrom("video_jobs").select("id").where("status", "=", "starting").orderBy("created_at").limit(5);
      const locked = forUpdateSkipLocked(claimable(db), db).compile().sql;
      const plainLock = forUpdate(claimable(db), engine).compile().sql;
      if (engine === "postgres") {
        expect(locked).toMatch(/for update skip locked$/);
        expect(plainLock).toMatch(/for update$/);
      } else {
        expect(locked).not.toMatch(/for update/);
        expect(plainLock).not.toMatch(/for update/);
      }
      const claimed = await db.transaction().execute((trx) => forUpdateSkipLocked(claimable(trx), trx).execute());
      expect(claimed).toEqual([{ id: "j1" }]);
    });

    it("0016 names every family live before it as a session (decision 0047), and no revoked one", async () => {
      // The database of this engine's tests (a second schema would confuse the migrator's lock table on PostgreSQL):
      // back to before 0016, a person with two families (one revoked), then up again.
      const { db } = target;
      expect((await new Migrator({ db, provider }).migrateTo("0015_operators")).error).toBeUndefined();
      const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;
      await db
        .insertInto("users")
        .values({ id: "u-0016", email: "sessions@example.com", password_hash: "x", created_at: at(0) })
        .execute();
      const token = (id: string, family: string, minute: number, revoked: boolean) => ({
        id,
        user_id: "u-0016",
        family_id: family,
        token_hash: id,
        created_at: at(minute),
        expires_at: "2026-02-01T00:00:00.000Z",
        used_at: null,
        revoked_at: revoked ? at(30) : null,
      });
      await db
        .insertInto("refresh_tokens")
        .values([token("t1", "f1", 1, false), token("t2", "f1", 5, false), token("t3", "f2", 2, true)])
        .execute();
      expect((await new Migrator({ db, provider }).migrateToLatest()).error).toBeUndefined();
      const sessions = await db.selectFrom("sessions").selectAll().where("user_id", "=", "u-0016").execute();
      expect(sessions).toEqual([
        {
          id: "f1",
          user_id: "u-0016",
          device: "Unknown device",
          created_at: at(1),
          last_used_at: at(5),
          revoked_at: null,
        },
      ]);
      expect(await readSchema(db)).toEqual(schemas[engine]);
    });

    it("0018 ends every session a revoke once reached, the successor it missed included, and names every live family (decision 0050)", async () => {
      const { db } = target;
      expect((await new Migrator({ db, provider }).migrateTo("0017_transient_speech")).error).toBeUndefined();
      const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;
      await db
        .insertInto("users")
        .values({ id: "u-0018", email: "revoked@example.com", password_hash: "x", created_at: at(0) })
        .execute();
      const session = (id: string) => ({
        id,
        user_id: "u-0018",
        device: "Firefox on Linux",
        created_at: at(1),
        last_used_at: at(2),
      });
      await db
        .insertInto("sessions")
        .values([session("ended"), session("live")])
        .execute();
      const token = (id: string, family: string, minute: number, revokedAt: string | null) => ({
        id,
        user_id: "u-0018",
        family_id: family,
        token_hash: id,
        created_at: at(minute),
        expires_at: "2026-02-01T00:00:00.000Z",
        used_at: null,
        revoked_at: revokedAt,
        successor_sealed: revokedAt ? null : "v1.sealed",
      });
      // "ended": signed out at minute 20 while its rotation inserted t-escaped, which that revoke did not see.
      await db
        .insertInto("refresh_tokens")
        .values([
          token("t-old", "ended", 3, at(20)),
          token("t-escaped", "ended", 20, null),
          token("t-live", "live", 3, null),
          token("t-unnamed", "unnamed", 4, null),
        ])
        .execute();
      expect((await new Migrator({ db, provider }).migrateToLatest()).error).toBeUndefined();
      const sessions = await db
        .selectFrom("sessions")
        .select(["id", "device", "revoked_at"])
        .where("user_id", "=", "u-0018")
        .orderBy("id")
        .execute();
      expect(sessions).toEqual([
        { id: "ended", device: "Firefox on Linux", revoked_at: at(20) },
        { id: "live", device: "Firefox on Linux", revoked_at: null },
        { id: "unnamed", device: "Unknown device", revoked_at: null },
      ]);
      const tokens = await db
        .selectFrom("refresh_tokens")
        .select(["id", "revoked_at", "successor_sealed"])
        .where("user_id", "=", "u-0018")
        .orderBy("id")
        .execute();
      expect(tokens).toEqual([
        { id: "t-escaped", revoked_at: at(20), successor_sealed: null },
        { id: "t-live", revoked_at: null, successor_sealed: "v1.sealed" },
        { id: "t-old", revoked_at: at(20), successor_sealed: null },
        { id: "t-unnamed", revoked_at: null, successor_sealed: "v1.sealed" },
      ]);
      expect(await readSchema(db)).toEqual(schemas[engine]);
    });

    if (engine === "sqlite") {
      it("creates on SQLite exactly what 0001–0006 always created (existing databases ran them)", async () => {
        const fresh = await openTarget("sqlite");
        try {
          const { error } = await new Migrator({ db: fresh.db, provider }).migrateTo(LAST_ORIGINAL_MIGRATION);
          expect(error).toBeUndefined();
          const { rows } = await sql<{ name: string; sql: string }>`
            select name, sql from sqlite_master where sql is not null and name not like 'kysely_%' order by name`.execute(
            fresh.db,
          );
          expect(Object.fromEntries(rows.map((r) => [r.name, r.sql]))).toEqual(SQLITE_DDL_0001_TO_0006);
        } finally {
          await fresh.close();
        }
      });
    }
  });
}

if (engines.includes("postgres")) {
  describe("SQLite and PostgreSQL", () => {
    it("end with the same tables, columns (types, nullability, defaults) and indexes", () => {
      const sqlite = schemas.sqlite!;
      const postgres = schemas.postgres!;
      expect(sqlite && postgres).toBeTruthy();
      expect(Object.keys(postgres.tables).sort()).toEqual(Object.keys(sqlite.tables).sort());
      for (const [table, columns] of Object.entries(sqlite.tables)) {
        const other = postgres.tables[table];
        expect(
          other.map((c) => c.name),
          table,
        ).toEqual(columns.map((c) => c.name));
        columns.forEach((column, i) => {
          const where = `${table}.${column.name}`;
          expect(
            POSTGRES_TYPES_FOR[column.type] ?? [],
            `${where}: ${column.type} on SQLite, ${other[i].type} on PostgreSQL`,
          ).toContain(other[i].type);
          expect(other[i].notNull, `${where} not null`).toBe(column.notNull);
          expect(other[i].hasDefault, `${where} default`).toBe(column.hasDefault);
        });
      }
      expect(postgres.indexes).toEqual(sqlite.indexes);
    });
  });
}

/** What 0001–0006 create on SQLite (sqlite_master), generated from the migrations as first shipped: never to change. */
const SQLITE_DDL_0001_TO_0006: Record<string, string> = {
  content_items:
    'CREATE TABLE "content_items" ("id" text primary key, "user_id" text not null references "users" ("id") on delete cascade, "title" text not null, "body" text default \'\' not null, "pinned" integer default 0 not null, "created_at" text not null, "updated_at" text not null)',
  feedback:
    'CREATE TABLE "feedback" ("id" text primary key, "user_id" text references "users" ("id") on delete set null, "name" text not null, "email" text not null, "message" text not null, "created_at" text not null)',
  login_attempts:
    'CREATE TABLE "login_attempts" ("id" integer primary key autoincrement, "email" text not null, "client_address" text not null, "attempted_at" text not null)',
  media_files:
    'CREATE TABLE "media_files" ("id" text primary key, "user_id" text not null references "users" ("id") on delete cascade, "kind" text not null, "name" text not null, "content_type" text not null, "size" bigint not null, "created_at" text not null, "updated_at" text not null)',
  projects:
    'CREATE TABLE "projects" ("id" text primary key, "user_id" text not null references "users" ("id") on delete cascade, "title" text not null, "description" text default \'\' not null, "voice_media_id" text references "media_files" ("id") on delete set null, "video_media_id" text references "media_files" ("id") on delete set null, "image_media_id" text references "media_files" ("id") on delete set null, "music_track" text, "created_at" text not null, "updated_at" text not null)',
  refresh_tokens:
    'CREATE TABLE "refresh_tokens" ("id" text primary key, "user_id" text not null references "users" ("id") on delete cascade, "family_id" text not null, "token_hash" text not null unique, "created_at" text not null, "expires_at" text not null, "used_at" text, "revoked_at" text)',
  registration_attempts:
    'CREATE TABLE "registration_attempts" ("id" text primary key, "client_address" text not null, "attempted_at" text not null)',
  sqlite_sequence: "CREATE TABLE sqlite_sequence(name,seq)",
  users:
    'CREATE TABLE "users" ("id" text primary key, "email" text not null unique, "password_hash" text not null, "created_at" text not null)',
  video_jobs:
    'CREATE TABLE "video_jobs" ("id" text primary key, "user_id" text not null references "users" ("id") on delete cascade, "prompt" text not null, "status" text not null, "progress" real default 0 not null, "provider" text not null, "external_id" text, "media_id" text references "media_files" ("id") on delete set null, "error" text, "attempts" integer default 0 not null, "runner_id" text, "heartbeat_at" text, "created_at" text not null, "updated_at" text not null, "completed_at" text)',
  content_items_user_list:
    'CREATE INDEX "content_items_user_list" on "content_items" ("user_id", "pinned", "updated_at", "id")',
  login_attempts_address:
    'CREATE INDEX "login_attempts_address" on "login_attempts" ("client_address", "attempted_at")',
  login_attempts_email: 'CREATE INDEX "login_attempts_email" on "login_attempts" ("email", "attempted_at")',
  media_files_user_kind_created:
    'CREATE INDEX "media_files_user_kind_created" on "media_files" ("user_id", "kind", "created_at")',
  media_files_user_kind_name:
    'CREATE UNIQUE INDEX "media_files_user_kind_name" on "media_files" ("user_id", "kind", "name")',
  projects_image_media_id: 'CREATE INDEX "projects_image_media_id" on "projects" ("image_media_id")',
  projects_user_updated: 'CREATE INDEX "projects_user_updated" on "projects" ("user_id", "updated_at", "id")',
  projects_video_media_id: 'CREATE INDEX "projects_video_media_id" on "projects" ("video_media_id")',
  projects_voice_media_id: 'CREATE INDEX "projects_voice_media_id" on "projects" ("voice_media_id")',
  refresh_tokens_family: 'CREATE INDEX "refresh_tokens_family" on "refresh_tokens" ("family_id")',
  refresh_tokens_user: 'CREATE INDEX "refresh_tokens_user" on "refresh_tokens" ("user_id")',
  registration_attempts_address:
    'CREATE INDEX "registration_attempts_address" on "registration_attempts" ("client_address", "attempted_at")',
  video_jobs_status: 'CREATE INDEX "video_jobs_status" on "video_jobs" ("status", "created_at")',
  video_jobs_user_created: 'CREATE INDEX "video_jobs_user_created" on "video_jobs" ("user_id", "created_at")',
};
