import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The feature layout of app/ (docs/decisions/0085-rooms-by-feature.md, docs/architecture.md): inside each
 * floor, one folder per feature or concern, so no folder grows flat again; and no two files share a name,
 * so a name found in a log, a stack or a review leads to one file. app/routes is the URL map's own
 * layout (one module per route, named as React Router's convention has it) and is left out of both.
 */
const APP = path.resolve(__dirname, "../../app");
const ROUTES = path.join(APP, "routes");
const MAX_FILES_IN_A_FOLDER = 20;
const SOURCE = /\.(ts|tsx|mts|mjs|js|jsx)$/;

function folders(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const folder = path.join(dir, entry.name);
      return folder === ROUTES ? [] : [folder, ...folders(folder)];
    });
}

const filesIn = (dir: string) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);

/** A source file's name up to its first dot: `content.server.ts` and `content.tsx` are one name. */
const stemOf = (name: string) => name.split(".")[0];

describe("the feature layout of app/", () => {
  const every = [APP, ...folders(APP)];

  it(`has no folder outside app/routes holding more than ${MAX_FILES_IN_A_FOLDER} source files directly`, () => {
    const crowded = every
      .map((folder) => ({
        folder: path.relative(APP, folder) || ".",
        count: filesIn(folder).filter((name) => SOURCE.test(name)).length,
      }))
      .filter(({ count }) => count > MAX_FILES_IN_A_FOLDER);
    expect(every.length).toBeGreaterThan(30);
    expect(crowded).toEqual([]);
  });

  it("has no two files outside app/routes with the same name", () => {
    const byName = new Map<string, string[]>();
    // React Router names its two entries (entry.client, entry.server); each language's folder holds one messages.json.
    const namedByDesign = (folder: string, name: string) =>
      /^entry\.(client|server)\.tsx$/.test(name) ||
      path.relative(APP, folder).startsWith(path.join("common", "i18n", "locales"));
    for (const folder of every) {
      for (const name of filesIn(folder).filter((name) => !namedByDesign(folder, name))) {
        const key = SOURCE.test(name) ? `source ${stemOf(name)}` : name;
        const relative = path.relative(APP, path.join(folder, name));
        byName.set(key, [...(byName.get(key) ?? []), relative]);
      }
    }
    const namesakes = [...byName.values()].filter((paths) => paths.length > 1);
    expect(byName.size).toBeGreaterThan(250);
    expect(namesakes).toEqual([]);
  });
});
