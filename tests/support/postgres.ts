import { randomUUID } from "node:crypto";
import pg from "pg";

/**
 * PostgreSQL for the test suites (`npm run test:pg`): the server the tests may create databases in,
 * and a fresh database per test server or unit test file, so tests that start fresh servers stay
 * isolated as they are on SQLite (a fresh DATA_DIR, a fresh file). The databases are left in place
 * (a server may be started again on the same data); the throwaway cluster goes with them.
 */

/** The postgres:// URL to create test databases in: TEST_DATABASE_URL, else DATABASE_URL; null when neither is one. */
export function postgresTestServer(): string | null {
  for (const value of [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL]) {
    const url = value?.trim();
    if (url && /^postgres(ql)?:\/\//i.test(url)) return url;
  }
  return null;
}

/** Creates an empty database in the server `serverUrl` names; resolves with its URL. */
export async function createTestDatabase(serverUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}_${process.pid}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
