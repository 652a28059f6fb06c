import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Files stay readable in one sitting: at most 300 lines. A route module is thin (parse, authorize, call
 * a model or service, respond); its UI belongs in app/components/ and its logic in app/models/ or
 * app/services/. The limit holds for every file of app/ (each floor: common, lib, models, ai, services,
 * auth, and the doors routes, components and browser, and the entry modules beside them) and of server/
 * (the production front door, when it is there); a file past it is allowed only when decision record
 * 0060 or 0061 names it under "## Exceptions".
 */
const ROOT = path.resolve(__dirname, "../..");
const CHECKED = ["app", "server"];
const EXCEPTION_RECORDS = ["0060", "0061"];
const MAX_LINES = 300;

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" || entry.name === "node_modules" ? [] : sourceFiles(file);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) ? [file] : [];
  });
}

/** Lines as `wc -l` and an editor count them: a final newline does not start another. */
function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** The paths a record lists under its "## Exceptions" heading, one `path` per "- " line. */
function exceptionsIn(markdown: string): string[] {
  const section = /^## Exceptions\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1] ?? "";
  return [...section.matchAll(/^- `([^`]+)`/gm)].map((match) => match[1]);
}

function namedExceptions(): Set<string> {
  const folder = path.join(ROOT, "docs/decisions");
  const records = fs
    .readdirSync(folder)
    .filter((name) => EXCEPTION_RECORDS.some((number) => name.startsWith(`${number}-`)));
  return new Set(records.flatMap((name) => exceptionsIn(fs.readFileSync(path.join(folder, name), "utf8"))));
}

const measured = () =>
  CHECKED.flatMap((dir) => sourceFiles(path.join(ROOT, dir))).map((file) => ({
    file: path.relative(ROOT, file).split(path.sep).join("/"),
    lines: lineCount(fs.readFileSync(file, "utf8")),
  }));

describe("files stay short (at most 300 lines, exceptions named by a decision record)", () => {
  it("finds every floor of app/ (the /api route modules included), its entry modules and server/", () => {
    const files = measured().map(({ file }) => file);
    expect(files).toContain("app/routes/library.tsx");
    expect(files).toContain("app/routes/api/library.ts");
    expect(files).toContain("app/components/media/voice-list.tsx");
    expect(files).toContain("app/models/media/media.server.ts");
    for (const floor of ["common", "lib", "models", "ai", "services", "auth", "routes", "components", "browser"]) {
      expect(
        files.some((file) => file.startsWith(`app/${floor}/`)),
        `app/${floor}`,
      ).toBe(true);
    }
    expect(files).toContain("app/root.tsx");
    expect(files).toContain("app/entry.server.tsx");
    expect(files.some((file) => file.includes("+types"))).toBe(false);
  });

  it("has no file over 300 lines that a decision record does not name", () => {
    const allowed = namedExceptions();
    const tooLong = measured()
      .filter(({ file, lines }) => lines > MAX_LINES && !allowed.has(file))
      .map(
        ({ file, lines }) =>
          `${file} has ${lines} lines (at most ${MAX_LINES}): split it at a natural seam (a route's UI to app/components/, its logic to a model or service)`,
      );
    expect(tooLong).toEqual([]);
  });

  it("names no exception that is gone or back under the limit (the list only shrinks)", () => {
    const lines = new Map(measured().map(({ file, lines }) => [file, lines]));
    const stale = [...namedExceptions()].filter((file) => (lines.get(file) ?? 0) <= MAX_LINES);
    expect(stale).toEqual([]);
  });

  it("reads a record's exceptions from its list", () => {
    const record =
      "# 0061\n\n## Exceptions\n- `app/models/a.server.ts` (320 lines): why\n- `server/b.ts`\n\n## Consequences\n- `not/this.ts`\n";
    expect(exceptionsIn(record)).toEqual(["app/models/a.server.ts", "server/b.ts"]);
    expect(exceptionsIn("# 0060\n\n## Exceptions\n- `app/models/c.server.ts`\n")).toEqual(["app/models/c.server.ts"]);
    expect(exceptionsIn("# none\n\n## Decision\n- `app/x.ts`\n")).toEqual([]);
  });

  it("counts lines as wc -l does", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a\n")).toBe(1);
    expect(lineCount("a\nb")).toBe(2);
    expect(lineCount("a\nb\n")).toBe(2);
  });
});
