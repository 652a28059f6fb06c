// `npm run docs:config`: writes docs/configuration.md and .env.example from the settings' declarations
// (app/lib/settings/). tests/unit/settings-docs.test.ts fails when either file differs from what the
// declarations render, so a new or changed variable is documented by running this once.
// The declarations are TypeScript: Vite's runnerImport loads them on plain Node (no vite.config.ts,
// whose React Router plugin is not needed for a few pure modules).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runnerImport } from "vite";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { module } = await runnerImport(path.join(root, "app/lib/settings/docs.ts"), {
  root,
  configFile: false,
  logLevel: "error",
});

const outputs = [
  ["docs/configuration.md", module.renderConfigurationDoc()],
  [".env.example", module.renderEnvExample()],
];
for (const [file, text] of outputs) {
  const target = path.join(root, file);
  const before = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : null;
  if (before === text) {
    console.log(`[docs:config] ${file} is up to date`);
    continue;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
  console.log(`[docs:config] wrote ${file}`);
}
