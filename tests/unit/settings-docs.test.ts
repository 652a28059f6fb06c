import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseSettings } from "~/lib/settings/env.server";
import { SETTING_GROUPS } from "~/lib/settings/catalogue";
import { renderConfigurationDoc, renderEnvExample } from "~/lib/settings/docs";

/**
 * docs/configuration.md and .env.example are made from the settings' declarations; a declaration
 * changed without `npm run docs:config` leaves them stale, and this fails.
 */
const root = path.resolve(__dirname, "../..");
const onDisk = (file: string) =>
  fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), "utf8") : "(missing)";

describe("generated settings docs", () => {
  it.each([
    ["docs/configuration.md", renderConfigurationDoc],
    [".env.example", renderEnvExample],
  ])("%s is what the declarations render", (file, render) => {
    expect(onDisk(file) === render(), `${file} is stale: run \`npm run docs:config\``).toBe(true);
  });

  it("lists every variable the schema reads, the per-person AI limits too", () => {
    const names = SETTING_GROUPS.flatMap((group) => Object.keys(group.variables));
    const example = renderEnvExample();
    const doc = renderConfigurationDoc();
    for (const name of names) {
      expect(example).toMatch(new RegExp(`^#? ?${name}=`, "m"));
      expect(doc).toContain(`| \`${name}\` |`);
    }
    expect(names).toEqual(expect.arrayContaining(["AI_REQUESTS_PER_MINUTE", "AI_CONCURRENT_PER_PERSON"]));
  });

  it("writes in .env.example the defaults the schema applies", () => {
    const assigned = Object.fromEntries(
      renderEnvExample()
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    expect(parseSettings(assigned)).toEqual(parseSettings({}));
  });
});
