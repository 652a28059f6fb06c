// How the front door is built (docs/decisions/0054): `react-router build` (`npm run build`) ends by
// compiling server/index.ts and what it imports into one plain ES2022 module,
// <BUILD_DIR>/server-entry/index.js, which Node 20 and 24 run as it is. Rolldown does it: Vite 8
// bundles with it, so it is installed with Vite and nothing is added. Packages (sirv, negotiator,
// mrmime) and Node's own modules stay imports; types are erased, nothing else changes (no
// tree-shaking, no minifying).
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";

/** The compiled server's place inside a build folder. */
export const SERVER_ENTRY = "server-entry/index.js";

const source = path.join(path.dirname(fileURLToPath(import.meta.url)), "index.ts");

/** Compiles the front door into `buildDir` (a build folder, e.g. `build`). */
export async function compileServer(buildDir: string): Promise<void> {
  // Rolldown as Vite resolves it: the copy Vite itself bundles with.
  const fromVite = createRequire(createRequire(import.meta.url).resolve("vite/package.json"));
  const { build } = (await import(fromVite.resolve("rolldown"))) as typeof import("rolldown");
  await build({
    input: source,
    platform: "node",
    external: (id) => !id.startsWith(".") && !path.isAbsolute(id),
    transform: { target: "es2022" },
    // The front door is this folder's own code, every line meant: nothing to shake out.
    treeshake: false,
    logLevel: "warn",
    // One file: server/tracing.ts, imported only when traces are on, is inlined, and the
    // OpenTelemetry packages it imports stay imports, loaded only then.
    output: { file: path.join(buildDir, SERVER_ENTRY), format: "esm", codeSplitting: false },
    write: true,
  });
}

/** The Vite plugin: after the server bundle is written, the front door beside it. */
export function frontDoor(): Plugin {
  return {
    name: "studio-front-door",
    apply: "build",
    closeBundle: {
      sequential: true,
      async handler() {
        if (this.environment?.name !== "ssr") return;
        // The server bundle goes to <BUILD_DIR>/server; the front door beside it.
        await compileServer(path.dirname(this.environment.config.build.outDir));
      },
    },
  };
}
