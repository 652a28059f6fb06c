import fs from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "~/routes";

/**
 * docs/architecture.md's feature map stays whole: it names every route module of the URL map
 * (app/routes.ts) and every feature folder of a floor (`app/models/sharing/`, `app/components/shell/`),
 * so "everything about a feature" is found in one look. Files inside a folder are not held to it: a
 * split file stays in its folder, and the map names the folder. That every path it names exists is
 * tests/unit/doc-paths.test.ts's.
 */
const ROOT = path.resolve(__dirname, "../..");
const APP = path.join(ROOT, "app");
/** The folders whose subfolders are features or concerns (app/routes is the URL map's own layout). */
const FLOORS = ["common", "lib", "models", "ai", "services", "components", "browser"];

function featureMap(): string {
  const markdown = fs.readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
  const start = markdown.indexOf("\n## Feature map\n");
  const end = markdown.indexOf("\n## ", start + 1);
  return start === -1 ? "" : markdown.slice(start, end === -1 ? undefined : end);
}

function routeModules(entries: readonly RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [`app/${entry.file}`, ...routeModules(entry.children ?? [])]);
}

function featureFolders(): string[] {
  return FLOORS.flatMap((floor) =>
    fs
      .readdirSync(path.join(APP, floor), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `app/${floor}/${entry.name}/`),
  );
}

describe("the feature map in docs/architecture.md", () => {
  const map = featureMap();
  const named = (item: string) => map.includes(`\`${item}\``);

  it("is there", () => {
    expect(map.length).toBeGreaterThan(1000);
    expect(featureFolders()).toContain("app/models/sharing/");
  });

  it("names every route module of app/routes.ts", () => {
    const modules = [...new Set(routeModules(routes))];
    expect(modules.length).toBeGreaterThan(80);
    expect(modules.filter((module) => !named(module))).toEqual([]);
  });

  it("names every feature folder of every floor", () => {
    expect(featureFolders().filter((folder) => !named(folder))).toEqual([]);
  });
});
