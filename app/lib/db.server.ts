import path from "node:path";
import Database from "better-sqlite3";
import { Kysely, Migrator, sql, SqliteDialect, type Migration, type MigrationProvider } from "kysely";
import type { Database as Schema } from "./db-schema";
import { env } from "./env.server";

/**
 * Migrations are bundled into the server build through import.meta.glob, so the production server
 * needs no TypeScript loader and no migrations folder at run time.
 */
const migrationModules = import.meta.glob<Migration>("../../db/migrations/*.ts", { eager: true });

const bundledMigrations: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {};
    for (const [file, module] of Object.entries(migrationModules)) {
      migrations[path.basename(file, ".ts")] = module;
    }
    return migrations;
  },
};

function openSqlite(file: string) {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  return sqlite;
}

export async function migrateToLatest(database: Kysely<Schema>) {
  const migrator = new Migrator({ db: database, provider: bundledMigrations });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === "Error") console.error(`[studio] migration ${result.migrationName} failed`);
  }
  if (error) throw error;
}

function createDatabase() {
  const file = process.env.DATABASE_FILE || path.join(env.dataDir, "studio.sqlite");
  return new Kysely<Schema>({ dialect: new SqliteDialect({ database: openSqlite(file) }) });
}

export const db = createDatabase();
// Top-level await: the server does not answer before the schema is current.
await migrateToLatest(db);

/** Whether the database answers a trivial query (GET /api/health). */
export async function databaseIsReachable(): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
