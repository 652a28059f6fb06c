import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// docs/decisions: one short record per lasting choice, each with its Status and Date near the top;
// a record that is superseded or amended names the record that did it, and that record exists.
const folder = path.resolve("docs/decisions");
const records = fs.readdirSync(folder).filter((name) => /^\d{4}-.+\.md$/.test(name));

function head(name: string): string {
  return fs.readFileSync(path.join(folder, name), "utf8").split("\n").slice(0, 8).join("\n");
}

describe("decision records", () => {
  it("are there, one file per number", () => {
    expect(records.length).toBeGreaterThan(30);
    const numbers = records.map((name) => name.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it.each(records)("%s carries its Status and Date", (name) => {
    const top = head(name);
    expect(top, name).toMatch(/^Status: \S/m);
    expect(top, name).toMatch(/^Date: \d{4}-\d{2}-\d{2}$/m);
  });

  it.each(records)("%s names only records that exist when it says superseded or amended", (name) => {
    const status = /^Status: (.*)$/m.exec(head(name))?.[1] ?? "";
    for (const match of status.matchAll(/(?:superseded by|supersedes|amended by|amends)[^)]*?\b(\d{4})\b/gi)) {
      expect(
        records.some((record) => record.startsWith(match[1])),
        `${name} names ${match[1]}`,
      ).toBe(true);
    }
  });
});
