// `npm run admin -- <command>`: the operator's command line (issue 27; docs/decisions/0046). Run
// `npm run admin -- help` for the commands. It loads the server build (`npm run build`; built here
// first when missing, as `npm start` does) and runs `runAdmin` from it (app/services/admin.server.ts):
// the same settings schema as the server (DATA_DIR, DATABASE_URL, STORAGE_URL, ... from the
// environment) and the app's own models, on SQLite or PostgreSQL, while the server runs.
// Exit codes: 0 done, 1 failed or not confirmed, 2 bad arguments.
import fs from "node:fs";
import readline from "node:readline";
import { pathToFileURL } from "node:url";
import { ensureBuild, serverBuildPath } from "./ensure-build.mjs";

const serverBuild = serverBuildPath();

// Built only when the app's build is missing (the command needs no more of it): a rebuild of a stale
// build would replace a running server's client files under it.
if (!fs.existsSync(serverBuild)) ensureBuild({ log: (message) => console.error(`[admin] ${message}`), whenStale: false, output: "stderr" });

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
