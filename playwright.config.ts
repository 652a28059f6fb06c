import { defineConfig } from "@playwright/test";
import { CHROMIUM_FLAGS } from "./tests/harness/launch.mjs";

// Run through `npm run test:e2e` (tests/harness/e2e.mjs), which starts the server and sets BASE_URL.
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Bounds on a hang, not speed checks: on a loaded 2-core machine an axe scan of the camera screens
  // alone took 25 s of the old 30 s (the same on older code), and a navigation's content
  // outlasted a 7 s expect.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // npm test reads the JSON report for its closing count line.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: process.env.BASE_URL ?? "http://localhost:3000",
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        ...CHROMIUM_FLAGS,
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        "--autoplay-policy=no-user-gesture-required",
      ],
    },
  },
});
