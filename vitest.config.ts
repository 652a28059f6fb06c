import { defineConfig } from "vitest/config";

// Vitest runs without the React Router plugin: unit tests import app modules directly and
// API tests talk HTTP to the production build started in tests/api/global-setup.ts.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts"],
    setupFiles: ["tests/unit/setup.ts"],
    globalSetup: ["tests/api/global-setup.ts"],
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
