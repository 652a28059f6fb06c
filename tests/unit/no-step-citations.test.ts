import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A comment, a config or a doc cites only what a reader can open: a file, a decision record, a commit.
 * A work item's number (the word for it, then its number) names something outside the repository, so no file outside
 * docs/decisions/ (where a record's history may say what asked for it) cites one.
 */
const ROOT = path.resolve(__dirname, "../..");
const CITATION = /\b(?:step|issue)s?\s+#?\d+/i;
const TEXT = /\.(?:ts|tsx|mts|mjs|js|cjs|json|md|css|ya?ml|sh|conf)$|(?:^|\/)\.ci\/run$|\.env\.example$/;
/** This test's own file spells the pattern out. */
const SELF = path.relative(ROOT, __filename);

function trackedFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return listed
    .split("\n")
    .filter((file) => file && TEXT.test(file) && !file.startsWith("docs/decisions/"))
    .filter((file) => file !== SELF && file !== "package-lock.json" && fs.existsSync(path.join(ROOT, file)));
}

describe("citations a reader can open", () => {
  it("has no step or issue number in a comment, config or doc outside docs/decisions/", () => {
    const files = trackedFiles();
    const found = files.flatMap((file) =>
      fs
        .readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, index) => (CITATION.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    expect(files.length).toBeGreaterThan(400);
    expect(files).toContain("react-router.config.ts");
    expect(found).toEqual([]);
  });

  it("recognises a citation however it is written", () => {
    // Spelled out of parts, so this file holds no citation of its own.
    const cite = (word: string, rest: string) => `${word} ${rest}`;
    for (const line of [
      cite("// step", "7 made it"),
      cite("(issue", "32, item 13)"),
      cite("Step", "21: the path"),
      cite("issues", "3 and 4"),
      cite("issue", "#12"),
    ]) {
      expect(CITATION.test(line), line).toBe(true);
    }
    for (const line of ["a step forward", "in 3 steps", "the issue is 7 bytes"])
      expect(CITATION.test(line), line).toBe(false);
  });
});
