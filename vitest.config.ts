import { defineConfig } from "vitest/config";

// Vitest runs without the React Router plugin. Two projects: `unit` imports app modules directly
// (no build needed), `api` talks HTTP to the production build that tests/api/global-setup.ts starts.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    setupFiles: ["tests/unit/setup.ts"],
    environment: "node",
    // Bounds for a hang, not for speed: on a loaded machine (both cores taken by other work) a test that
    // takes 5 s on a quiet one took over 60 s, and a server's start over 30 s. What a test proves is in
    // its assertions; a generous bound only keeps a slow machine from failing it.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    // Vitest's default is one worker per core but one (a single worker on a 2-core machine), and the
    // API files mostly wait on the server under test: three at once take a third of the time (538 s
    // to 189 s for the 96 files here), and each file's people are its own.
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: { name: "api", include: ["tests/api/**/*.test.ts"], globalSetup: ["tests/api/global-setup.ts"] },
      },
    ],
  },
});
