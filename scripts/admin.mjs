// `npm run admin -- <command>`: the operator's command line (issue 27; docs/decisions/0046). Run
// `npm run admin -- help` for the commands. It loads the server build (`npm run build`; built here
// first when missing, as `npm start` does) and runs `runAdmin` from it (app/services/admin.server.ts):
// the same settings schema as the server (DATA_DIR, DATABASE_URL, STORAGE_URL, ... from the
// environment) and the app's own models, on SQLite or PostgreSQL, while the server runs.
// Exit codes: 0 done, 1 failed or not confirmed, 2 bad arguments.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const serverBuild = path.resolve(root, process.env.BUILD_DIR || "build", "server/index.js");

if (!fs.existsSync(serverBuild)) {
  console.error("[admin] no server build yet: building the app...");
  const bin = path.join(root, "node_modules/.bin/react-router");
  const result = fs.existsSync(bin) ? spawnSync(bin, ["build"], { cwd: root, stdio: ["ignore", 2, 2], env: process.env }) : { status: 1 };
  if (result.status !== 0) {
    console.error("[admin] cannot build the app: run `npm run build` first.");
    process.exit(1);
  }
}

let runAdmin;
try {
  ({ runAdmin } = (await import(pathToFileURL(serverBuild).href)).entry.module);
} catch (error) {
  // A bad setting (e.g. REGISTRATION=maybe) stops the command as it stops the server.
  console.error(error?.name === "SettingsError" ? `[admin] ${error.message}` : error);
  process.exit(2);
}
if (typeof runAdmin !== "function") {
  console.error(`[admin] ${serverBuild} is an older build without the admin command: run \`npm run build\``);
  process.exit(1);
}

/** One line from stdin (the confirmation of `delete`); null when stdin ends first. */
function ask(question) {
  return new Promise((resolve) => {
    process.stderr.write(question);
    const lines = readline.createInterface({ input: process.stdin, terminal: false });
    let answered = false;
    lines.once("line", (line) => {
      answered = true;
      lines.close();
      resolve(line);
    });
    lines.once("close", () => {
      if (!answered) resolve(null);
    });
  });
}

const code = await runAdmin(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  ask,
});
process.exitCode = code;
