import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The app asks and alerts in its own dialogs (app/browser/app-dialogs.ts, docs/screens.md#dialogs,
 * decision 0067): no window.alert/confirm/prompt and no bare alert()/confirm()/prompt() call anywhere
 * under app/. Comments are skipped (they may name the browser's functions).
 */
const ROOT = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" ? [] : sourceFiles(file);
    return /\.(ts|tsx|mts|mjs|js|jsx)$/.test(entry.name) ? [file] : [];
  });
}

/** The code without its comments (block and line; a `//` inside a string may cut a line short, never add a call). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

const NATIVE_CALL =
  /\b(?:window|globalThis|self)\s*\.\s*(?:alert|confirm|prompt)\s*\(|(?<![\w$.]|function\s)(?:alert|confirm|prompt)\s*\(/;

/** Each native dialog call in `source`, as "line: text". */
function nativeDialogCalls(source: string): string[] {
  return withoutComments(source)
    .split("\n")
    .flatMap((line, index) => (NATIVE_CALL.test(line) ? [`${index + 1}: ${line.trim()}`] : []));
}

describe("no native dialogs in app/", () => {
  it("finds the calls it must refuse, and not the app's own", () => {
    for (const call of [
      "window.alert(TEXT);",
      "if (!window.confirm(DELETE_CONFIRM)) return;",
      "const name = window.prompt('Name?');",
      "alert('Login failed');",
      "if (confirm(`Delete?`)) go();",
      "globalThis.confirm(x)",
      "self . alert ( x )",
      "x = prompt (text)",
    ])
      expect(nativeDialogCalls(call), call).toHaveLength(1);
    for (const fine of [
      "await confirmInApp({ message });",
      "void alertInApp(CAMERA_DENIED_TEXT);",
      "dialog.confirm(x); settings.prompt(y);",
      "// the browser's confirm() and alert() are not used",
      "/* window.alert(x) */",
      "const onConfirm = () => confirmed(true);",
      "function confirm(x) {}",
    ])
      expect(nativeDialogCalls(fine), fine).toEqual([]);
  });

  it("no file under app/ calls window.alert/confirm/prompt or a bare alert()/confirm()/prompt()", () => {
    const found = sourceFiles(path.join(ROOT, "app"))
      .map((file) => path.relative(ROOT, file).split(path.sep).join("/"))
      .flatMap((file) => nativeDialogCalls(fs.readFileSync(path.join(ROOT, file), "utf8")).map((c) => `${file}:${c}`));
    expect(found).toEqual([]);
  });
});
