// `npm run admin -- <command>`: the operator's command line (docs/decisions/0046). Run
// `npm run admin -- help` for the commands. It loads the server build (`npm run build`; built here
// first when missing, as `npm start` does) and runs `runAdmin` from it (app/services/operators/admin.server.ts):
// the same settings schema as the server (DATA_DIR, DATABASE_URL, STORAGE_URL, ... from the
// environment) and the app's own models, on SQLite or PostgreSQL, while the server runs.
// `backup [<folder>]` and `restore <folder>` (also `npm run backup` / `npm run restore`) are plain
// scripts (scripts/admin/) given the settings the build parsed: no second settings parser.
// Exit codes: 0 done, 1 failed or not confirmed, 2 bad arguments (restore: refused).
import fs from "node:fs";
import readline from "node:readline";
import { pathToFileURL } from "node:url";
import { ensureBuild, serverBuildPath } from "./ensure-build.mjs";

const serverBuild = serverBuildPath();

// Built only when the app's build is missing (the command needs no more of it): a rebuild of a stale
// build would replace a running server's client files under it.
if (!fs.existsSync(serverBuild))
  ensureBuild({ log: (message) => console.error(`[admin] ${message}`), whenStale: false, output: "stderr" });

const args = process.argv.slice(2);
const command = args[0];
const fileCommand = command === "backup" || command === "restore";

let runAdmin, settings, parseStorageUrl;
try {
  ({ runAdmin, settings, parseStorageUrl } = (await import(pathToFileURL(serverBuild).href)).entry.module);
} catch (error) {
  // A bad setting (e.g. REGISTRATION=maybe) stops the command as it stops the server.
  console.error(error?.name === "SettingsError" ? `[${fileCommand ? command : "admin"}] ${error.message}` : error);
  process.exit(2);
}

if (fileCommand) {
  if (!settings || typeof parseStorageUrl !== "function") {
    console.error(`[${command}] ${serverBuild} is an older build: run \`npm run build\``);
    process.exit(1);
  }
  const rest = args.slice(1).filter((arg) => arg !== "--");
  let storage;
  try {
    storage = parseStorageUrl(settings.storageUrl, settings.dataDir);
  } catch (error) {
    console.error(`[${command}] failed: ${error.message}`);
    process.exit(1);
  }
  // What backup and restore need of the server's parsed settings.
  const stores = {
    dataDir: settings.dataDir,
    database: settings.database,
    storage,
    sessionSecretSet: settings.sessionSecret !== null,
  };
  const { backupCommand } = await import("./admin/backup.mjs");
  const { restoreCommand } = await import("./admin/restore.mjs");
  process.exit(await (command === "backup" ? backupCommand : restoreCommand)(rest, stores));
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

const code = await runAdmin(args, {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  ask,
});
process.exitCode = code;
