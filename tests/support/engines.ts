import path from "node:path";
import type { DatabaseEngine } from "~/lib/db-dialect.server";
import { env, type Settings } from "~/lib/env.server";
import { newId } from "~/lib/ids.server";
import { postgresAvailable, startPgCluster, type PgCluster } from "../harness/pg-cluster.mjs";
import { createTestDatabase, postgresTestServer } from "./postgres";

/**
 * The engines a unit test of a domain rule runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL
 * is a postgres:// URL (npm run test:pg) or PostgreSQL's binaries are installed (a throwaway cluster,
 * started on first use), as tests/unit/migrations.test.ts does. `settingsFor(engine)` gives the app's
 * settings with a fresh database of that engine; `stop()` (in afterAll) stops the cluster it started.
 */
export function bothEngines(label: string) {
  const serverUrl = postgresTestServer();
  const postgres = process.env.TEST_DATABASE_URL && serverUrl ? "server" : postgresAvailable() ? "cluster" : null;
  if (!postgres) console.warn(`[${label}] PostgreSQL half NOT RUN: no TEST_DATABASE_URL and no PostgreSQL binaries`);
  const engines: DatabaseEngine[] = postgres ? ["sqlite", "postgres"] : ["sqlite"];
  const prefix = label.replace(/\W+/g, "_").toLowerCase();
  let cluster: PgCluster | undefined;

  async function settingsFor(engine: DatabaseEngine): Promise<Settings> {
    if (engine === "sqlite") {
      return { ...env, database: { engine: "sqlite", file: path.join(process.env.DATA_DIR!, `${prefix}-${newId()}.sqlite`) } } as Settings;
    }
    let admin = serverUrl!;
    if (postgres === "cluster") {
      cluster ??= await startPgCluster({ database: `studio_${prefix}` });
      admin = cluster.url;
    }
    return { ...env, database: { engine: "postgres", url: await createTestDatabase(admin, prefix) } } as Settings;
  }

  return { engines, settingsFor, stop: async () => cluster?.stop() };
}
