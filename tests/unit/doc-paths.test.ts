import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The docs stay true about where things are: every repository path README.md, docs/*.md (not
 * docs/decisions/, whose records keep the paths of their day) and server/README.md name exists, and so
 * does every file, and every markdown heading, a relative link of theirs points at. A path is one that
 * starts at a top folder of the repository (`app/models/sharing/`, `app/lib/db/db.server.ts`,
 * `tests/e2e/sharing.spec.ts`); a module named without its ending (`app/lib/db/db.server`) counts when a
 * file of it exists; a pattern (`app/routes/<name>.tsx`, `app/routes/media*.ts`) is not a path.
 * `docs/decisions/0069` names a record by its number.
 */
const ROOT = path.resolve(__dirname, "../..");
const TOP_FOLDERS = ["app", "server", "tests", "scripts", "db", "bench", "probes", "tools", "docs", "public", ".ci"];
const ENDINGS = ["", ".ts", ".tsx", ".mjs", ".js"];

/** A top folder's name, then path characters; not inside a longer path, a URL or a `~/` import. */
const PATH = new RegExp(
  `(?<![\\w./~@-])((?:${TOP_FOLDERS.map((name) => name.replace(".", "\\.")).join("|")})/[\\w./+-]*)`,
  "g",
);
/** What ends a pattern rather than a path. */
const PATTERN_NEXT = new Set(["<", "*", "{", "[", "…"]);

function docFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs, "server/README.md"].filter((file) => fs.existsSync(path.join(ROOT, file)));
}

function exists(relative: string): boolean {
  const record = /^docs\/decisions\/(\d{4})$/.exec(relative);
  if (record) return fs.readdirSync(path.join(ROOT, "docs/decisions")).some((name) => name.startsWith(record[1]));
  return ENDINGS.some((ending) => fs.existsSync(path.join(ROOT, relative + ending)));
}

/** The repository paths a text names, as written (a sentence's full stop left off). */
function namedPaths(text: string): string[] {
  return [...text.matchAll(PATH)].flatMap((match) => {
    const next = text[match.index + match[1].length];
    if (next !== undefined && PATTERN_NEXT.has(next)) return [];
    const named = match[1].replace(/\.+$/, "");
    return named.includes("..") ? [] : [named];
  });
}

/** A text's relative markdown links (no URL with a scheme), as written. */
function links(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

/** The targets of a text's relative markdown links, without their #fragment. */
function linkTargets(text: string): string[] {
  return links(text)
    .filter((target) => !target.startsWith("#"))
    .map((target) => decodeURIComponent(target.split("#")[0]));
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} (.*)$/gm)) {
    const base = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

describe("paths named in the docs exist", () => {
  const files = docFiles();

  it("reads the docs", () => {
    expect(files).toContain("README.md");
    expect(files).toContain("docs/architecture.md");
    expect(files.length).toBeGreaterThan(8);
  });

  it.each(files)("%s names only repository paths that exist", (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const missing = namedPaths(text).filter((named) => !exists(named));
    expect([...new Set(missing)]).toEqual([]);
  });

  it.each(files)("%s links only to files that exist", (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const missing = linkTargets(text).filter(
      (target) => !fs.existsSync(path.resolve(ROOT, path.dirname(file), target)),
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  it.each(files)("%s links only to headings that exist in markdown files", (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const missing = links(text).filter((link) => {
      const [target, fragment] = link.split("#");
      if (fragment === undefined) return false;
      const linked = target
        ? path.resolve(ROOT, path.dirname(file), decodeURIComponent(target))
        : path.join(ROOT, file);
      if (!linked.endsWith(".md") || !fs.existsSync(linked)) return false;
      return !anchorsOf(fs.readFileSync(linked, "utf8")).has(fragment);
    });
    expect([...new Set(missing)]).toEqual([]);
  });

  it("tells a path from a pattern, a URL and an import", () => {
    expect(
      namedPaths(
        "See `app/models/sharing/`, app/lib/db/db.server.ts. Not `app/routes/<name>.tsx`, `app/routes/media*.ts`, " +
          "https://example.com/app/x.ts, `~/lib/db/db.server` or `/work/app/y`.",
      ),
    ).toEqual(["app/models/sharing/", "app/lib/db/db.server.ts"]);
    expect(exists("app/lib/db/db.server")).toBe(true);
    expect(exists("docs/decisions/0012")).toBe(true);
    expect(exists("app/models/no-such-room/")).toBe(false);
    expect(
      anchorsOf("# The API\n## Every call\n```sh\n# a comment\n```\n### `npm run admin`\n## Every call\n"),
    ).toEqual(new Set(["the-api", "every-call", "npm-run-admin", "every-call-1"]));
  });
});
