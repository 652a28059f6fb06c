import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * README "The code": a route module is thin (parse, authorize, call a model or service, respond) and
 * at most 300 lines; its UI belongs in app/components/ and its logic in app/models/ or app/services/.
 */
const ROUTES = path.resolve(__dirname, "../../app/routes");
const MAX_LINES = 300;

function routeModules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" ? [] : routeModules(file);
    return /\.(ts|tsx)$/.test(entry.name) ? [file] : [];
  });
}

/** Lines as `wc -l` and an editor count them: a final newline does not start another. */
function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

describe("route modules stay thin (README: at most 300 lines)", () => {
  it("finds the route modules, /api ones included", () => {
    const files = routeModules(ROUTES).map((file) => path.relative(ROUTES, file));
    expect(files).toContain("library.tsx");
    expect(files).toContain(path.join("api", "library.ts"));
  });

  it("has no route module over 300 lines", () => {
    const tooLong = routeModules(ROUTES)
      .map((file) => ({ file: path.relative(process.cwd(), file), lines: lineCount(fs.readFileSync(file, "utf8")) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file} has ${lines} lines (at most ${MAX_LINES}): move its UI to app/components/, its logic to a model or service`);
    expect(tooLong).toEqual([]);
  });

  it("counts lines as wc -l does", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a\n")).toBe(1);
    expect(lineCount("a\nb")).toBe(2);
    expect(lineCount("a\nb\n")).toBe(2);
  });
});
