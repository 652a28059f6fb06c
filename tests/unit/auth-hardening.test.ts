import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { safeRedirectPath } from "~/common/safe-redirect";
import { readOrCreateSecretFile } from "~/lib/settings/session-secret.server";
import { SECRET_MIN_LENGTH } from "~/lib/settings/server-variables";

describe("safeRedirectPath", () => {
  it.each(["/dashboard", "/dashboard?edit=1", "/content#top", "/a/b/c?x=%2F%2Fevil", "/%09/evil.example/"])(
    "keeps %j",
    (target) => {
      expect(safeRedirectPath(target)).toBe(target);
    },
  );

  it.each([
    "/\t/evil.example/",
    "/\n/evil.example/",
    "/\r\n/evil.example/",
    "\t//evil.example/",
    "/\u0000/evil.example",
    "/\u007f/evil.example",
    "//evil.example/",
    "/\\evil.example/",
    "/\\\\evil.example/",
    "\\\\evil.example",
    "/.//evil.example/",
    "https://evil.example/",
    "javascript:alert(1)",
    " /dashboard",
    "",
    "dashboard",
  ])("refuses %j", (target) => {
    expect(safeRedirectPath(target)).toBe("/dashboard");
    expect(safeRedirectPath(target, "/")).toBe("/");
  });

  it("refuses anything that is not a string", () => {
    expect(safeRedirectPath(null)).toBe("/dashboard");
    expect(safeRedirectPath(undefined)).toBe("/dashboard");
    expect(safeRedirectPath(new File(["/x"], "x.txt"))).toBe("/dashboard");
  });
});

describe("the session secret file", () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-secret-"));
    dirs.push(dir);
    return path.join(dir, "session-secret");
  };
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("is created once (owner-only) and then reused", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const file = tempFile();
    const secret = readOrCreateSecretFile(file);
    expect(secret.length).toBeGreaterThanOrEqual(SECRET_MIN_LENGTH);
    expect(fs.readFileSync(file, "utf8").trim()).toBe(secret);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(readOrCreateSecretFile(file)).toBe(secret);
    expect(warn).toHaveBeenCalledTimes(1);
    // No temporary files are left behind.
    expect(fs.readdirSync(path.dirname(file))).toEqual(["session-secret"]);
  });

  it("an existing long enough secret is used as written (trimmed)", () => {
    const file = tempFile();
    const written = "k".repeat(SECRET_MIN_LENGTH);
    fs.writeFileSync(file, `  ${written}\n`);
    expect(readOrCreateSecretFile(file)).toBe(written);
  });

  it.each([
    ["empty", ""],
    ["blank", "   \n\n"],
    ["truncated", "abc123"],
    ["one short", "x".repeat(SECRET_MIN_LENGTH - 1)],
  ])("an %s file is replaced with a new secret, with a warning", (_name, content) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const file = tempFile();
    fs.writeFileSync(file, content);
    const secret = readOrCreateSecretFile(file);
    expect(secret.length).toBeGreaterThanOrEqual(SECRET_MIN_LENGTH);
    expect(fs.readFileSync(file, "utf8").trim()).toBe(secret);
    expect(warn.mock.calls.some(([message]) => String(message).includes("fewer than 32 characters"))).toBe(true);
    // The bad file is kept aside for inspection.
    const aside = fs.readdirSync(path.dirname(file)).filter((name) => name.startsWith("session-secret.invalid-"));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(path.dirname(file), aside[0]), "utf8")).toBe(content);
  });

  it("two instances starting together agree: the one that loses the race reads the winner's secret", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const file = tempFile();
    const winner = "w".repeat(64);
    const realLink = fs.linkSync;
    // Another instance publishes its secret between our read (no file) and our own publish.
    vi.spyOn(fs, "linkSync").mockImplementationOnce((existing, target) => {
      fs.writeFileSync(file, winner + "\n");
      return realLink(existing, target);
    });
    expect(readOrCreateSecretFile(file)).toBe(winner);
    expect(fs.readFileSync(file, "utf8").trim()).toBe(winner);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["session-secret"]);
  });
});
