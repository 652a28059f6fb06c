import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Each test file imports the app's modules in isolation with its own empty DATA_DIR (and database).
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "studio-unit-"));
process.env.SESSION_SECRET ??= "unit-test-secret-that-is-long-enough-0123456789";
