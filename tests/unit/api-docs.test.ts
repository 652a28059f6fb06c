import fs from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "~/routes";

/**
 * docs/api.md's "Every call" table names every /api path of the one URL map (app/routes.ts), and no path
 * the map lacks: a call added to the map without a row, or a row left behind by a removed call, fails
 * here. Paths are compared with their parameters blanked (`:id` in the map, `{id}` in the docs), without
 * a trailing slash; a row may name several paths and an optional tail (`/versions[/{version_id}]`).
 */
const ROOT = path.resolve(__dirname, "../..");
const API_DOCS = path.join(ROOT, "docs/api.md");

/** `/api/content/:id` and `/api/content/{id}/` alike become `/api/content/{}`. */
function normalised(apiPath: string): string {
  return apiPath
    .replace(/:[A-Za-z_]\w*/g, "{}")
    .replace(/\{[^}]*\}/g, "{}")
    .replace(/\/+$/, "");
}

/** Every path of the URL map, layouts' children included, with its leading slash. */
function mapPaths(entries: readonly RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, "/") : parent;
    return [...(entry.path ? [own] : []), ...mapPaths(entry.children ?? [], own)];
  });
}

/** The /api paths of the map, but the catch-all that answers an unknown path with 404. */
function apiPathsOfTheMap(): string[] {
  return mapPaths(routes).filter((p) => p.startsWith("/api/") && !p.includes("*"));
}

/** The text of one `## heading` section of a markdown file, up to the next `## ` heading. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) return "";
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** A table cell's /api paths, each optional `[...]` tail both left out and taken. */
function pathsInCell(cell: string): string[] {
  return [...cell.matchAll(/\/api(?:\/[\w{}[\]/.:-]*)?/g)].flatMap(([found]) => {
    const optional = /\[([^\]]*)\]/.exec(found);
    if (!optional) return [found];
    return [found.replace(optional[0], ""), found.replace(optional[0], optional[1])];
  });
}

/** The paths the "Every call" table's first column names. */
function documentedPaths(markdown: string): string[] {
  const rows = section(markdown, "Every call")
    .split("\n")
    .filter((line) => line.startsWith("|") && !/^\|\s*-/.test(line));
  // Cells are split at pipes that are not escaped (`{before: id \| null}`).
  return rows.slice(1).flatMap((row) => pathsInCell(row.split(/(?<!\\)\|/)[1] ?? ""));
}

describe("docs/api.md's Every call table against app/routes.ts", () => {
  const inMap = apiPathsOfTheMap();
  const documented = documentedPaths(fs.readFileSync(API_DOCS, "utf8"));
  const documentedSet = new Set(documented.map(normalised));
  const mapSet = new Set(inMap.map(normalised));

  it("reads both", () => {
    expect(inMap.length).toBeGreaterThan(50);
    expect(inMap).toContain("/api/content/:id/pin");
    expect(documented.length).toBeGreaterThan(50);
  });

  it("has a row for every /api path of the URL map", () => {
    expect(inMap.filter((p) => !documentedSet.has(normalised(p)))).toEqual([]);
  });

  it("names no /api path the URL map lacks", () => {
    expect(documented.filter((p) => !mapSet.has(normalised(p)))).toEqual([]);
  });

  it("compares paths with their parameters blanked", () => {
    expect(normalised("/api/content/:id/versions/:versionId/restore")).toBe(
      normalised("/api/content/{id}/versions/{version_id}/restore"),
    );
    expect(normalised("/api/aivideo/")).toBe("/api/aivideo");
    expect(pathsInCell("`GET /api/content/{id}/versions[/{version_id}]`")).toEqual([
      "/api/content/{id}/versions",
      "/api/content/{id}/versions/{version_id}",
    ]);
  });
});
