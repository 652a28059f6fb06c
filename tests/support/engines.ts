import path from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { engineOf, type DatabaseEngine } from "../../db/portable";
import { closeDatabase, db, openDatabase } from "~/lib/db/db.server";
import { env, type Settings } from "~/lib/settings/env.server";
import { newId } from "~/lib/db/ids.server";
import { postgresAvailable, startPgCluster, type PgCluster } from "../harness/pg-cluster.mjs";
import { createTestDatabase, postgresTestServer } from "./postgres";

/**
 * Declares `fn`'s tests once per engine, as `describe("<name> on <engine>")`: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is a postgres:// URL (npm run test:pg) or PostgreSQL's binaries are installed (a
 * throwaway cluster, started on first use). Each engine's tests get a fresh database of it, opened as the
 * app's before their first test; after the file's last test it is closed and the cluster stopped.
 * `fn` is given the engine for the few assertions that differ by engine.
 */
export function describeOnEachEngine(name: string, fn: (engine: DatabaseEngine) => void): void {
  const { engines, settingsFor, stop } = eachEngine(name);
  afterAll(async () => {
    await closeDatabase();
    await stop();
  });
  for (const engine of engines) {
    describe(`${name} on ${engine}`, () => {
      // Registered before `fn`'s hooks, so it runs before them: their setup finds this engine's database open.
      beforeAll(async () => {
        await closeDatabase();
        await openDatabase(await settingsFor(engine));
        expect(engineOf(db)).toBe(engine);
      });
      fn(engine);
    });
  }
}

/** The engines to run on, and `settingsFor(engine)`: the app's settings with a fresh database of that engine. */
function eachEngine(name: string) {
  const serverUrl = postgresTestServer();
  const postgres = process.env.TEST_DATABASE_URL && serverUrl ? "server" : postgresAvailable() ? "cluster" : null;
  if (!postgres) console.warn(`[${name}] PostgreSQL half NOT RUN: no TEST_DATABASE_URL and no PostgreSQL binaries`);
  const engines: DatabaseEngine[] = postgres ? ["sqlite", "postgres"] : ["sqlite"];
  // A database name's part: PostgreSQL names stop at 63 bytes, and createTestDatabase adds about 20.
  const prefix = name.replace(/\W+/g, "_").toLowerCase().slice(0, 30);
  let cluster: PgCluster | undefined;

  async function settingsFor(engine: DatabaseEngine): Promise<Settings> {
    if (engine === "sqlite") {
      return {
        ...env,
        database: { engine: "sqlite", file: path.join(process.env.DATA_DIR!, `${prefix}-${newId()}.sqlite`) },
      } as Settings;
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
