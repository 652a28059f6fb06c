import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

// Each test file imports the app's modules in isolation with its own empty DATA_DIR (and database).
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "studio-unit-"));
process.env.SESSION_SECRET ??= "unit-test-secret-that-is-long-enough-0123456789";

// Nothing opens the database on import (app/lib/db.server.ts): like the server at start, each test file
// gets it opened and migrated before its first test, and closed after its last. Imported here, not at
// the top, so the settings are parsed after DATA_DIR is set and in the test file's own module graph.
beforeAll(async () => {
  const { openDatabase } = await import("~/lib/db.server");
  await openDatabase();
});

afterAll(async () => {
  const { closeDatabase } = await import("~/lib/db.server");
  await closeDatabase();
});
