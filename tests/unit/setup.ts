import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase } from "../support/postgres";

// Each test file imports the app's modules in isolation with its own empty DATA_DIR (and database).
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "studio-unit-"));
process.env.SESSION_SECRET ??= "unit-test-secret-that-is-long-enough-0123456789";

// PostgreSQL (npm run test:pg): with TEST_DATABASE_URL set to a postgres:// URL, each test file gets a
// fresh database of its own in that server and DATABASE_URL names it, so the app opens PostgreSQL.
// Unset (npm test), nothing changes: the SQLite file in the file's DATA_DIR.
const postgresServer = process.env.TEST_DATABASE_URL?.trim();
if (postgresServer && /^postgres(ql)?:\/\//i.test(postgresServer)) {
  process.env.DATABASE_URL = await createTestDatabase(postgresServer, "unit");
}

// Nothing opens the database on import (app/lib/db/db.server.ts): like the server at start, each test file
// gets it opened and migrated before its first test, and closed after its last. Imported here, not at
// the top, so the settings are parsed after DATA_DIR is set and in the test file's own module graph.
beforeAll(async () => {
  const { openDatabase } = await import("~/lib/db/db.server");
  await openDatabase();
});

afterAll(async () => {
  const { closeDatabase } = await import("~/lib/db/db.server");
  await closeDatabase();
});
