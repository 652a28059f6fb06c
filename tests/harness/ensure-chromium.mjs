// @ts-check
// Finds Debian's Chromium for the browser tests, installing the `chromium` package when we can (and
// Debian's emoji font). Nothing here downloads a browser from anywhere else.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";

export function findChromium() {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    // An explicit choice that does not exist is a mistake to report, not a reason to test another browser.
    if (!fs.existsSync(chosen) || !fs.statSync(chosen).isFile()) {
      console.error(
        `[e2e] CHROMIUM_PATH is set to "${chosen}", but there is no such file. Fix it or unset CHROMIUM_PATH.`,
      );
      process.exit(1);
    }
    return chosen;
  }
  return ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((candidate) => fs.existsSync(candidate));
}

/** Where Debian's fonts-noto-color-emoji puts its font. */
const EMOJI_FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf";

/**
 * Emoji in the interface's texts (docs/screens.md quotes some) render as empty boxes where the machine has no
 * emoji font, in the browser tests and in the screenshots alike. Installs Debian's
 * fonts-noto-color-emoji when it is missing and apt-get is usable as root; never fails the run.
 */
export function ensureEmojiFont() {
  if (fs.existsSync(EMOJI_FONT)) return true;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || spawnSync("sh", ["-c", "command -v apt-get"]).status !== 0) {
    console.log(
      "[e2e] no emoji font (Debian: fonts-noto-color-emoji), and apt-get is not usable here: emoji may show as boxes",
    );
    return false;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () =>
    spawnSync("apt-get", ["install", "-y", "-qq", "fonts-noto-color-emoji"], { stdio: "inherit", env }).status === 0;
  console.log("[e2e] installing Debian's fonts-noto-color-emoji...");
  // The package lists may be missing or stale: update them once if the first try fails.
  const installed =
    install() || (spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env }).status === 0 && install());
  if (!installed) console.log("[e2e] could not install fonts-noto-color-emoji: emoji may show as boxes");
  return installed && fs.existsSync(EMOJI_FONT);
}

export function ensureChromium() {
  ensureEmojiFont();
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (!isRoot || !hasApt) {
    console.error(
      "[e2e] Chromium not found. Install Debian's `chromium` package (apt-get install chromium) " +
        "or set CHROMIUM_PATH to a Chromium binary.",
    );
    process.exit(1);
  }
  console.log("[e2e] installing Debian's chromium package...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
  const installed = findChromium();
  if (!installed) {
    console.error("[e2e] apt-get finished but no Chromium binary was found.");
    process.exit(1);
  }
  return installed;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureChromium());
