import { createRequire } from "node:module";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

const require = createRequire(import.meta.url);
const reactRouterDist = path.join(path.dirname(require.resolve("react-router/package.json")), "dist");

/**
 * react-router's package exports name only its development build (remix-run/react-router#12532,
 * #14102): without this a production bundle carries the development build, dev warnings and checks
 * included, on the server and in the browser. A build points both entries at dist/production, and
 * bundles react-router and its Node/Express adapters into the server build, so one production copy
 * serves every request (scripts/server.mjs takes `createRequestHandler` from the build).
 * `react-router dev` keeps the development build.
 */
const productionReactRouter = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, "production/index.mjs") },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, "production/dom-export.mjs") },
];

/**
 * Every page's first load: React, React DOM, React Router and the small modules the root layout
 * imports (toasts, theme, hydration flag). One chunk compresses better than eight and saves
 * requests; what only some screens use (drawing, camera, recorder, matrix rain, toastify) stays in
 * their own chunks (tests/api/js-budget.test.ts holds both).
 */
function firstLoadChunk(id: string): string | undefined {
  if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return "framework";
  if (/vite\/preload-helper|app\/components\/(toasts|theme-toggle|use-hydrated|enhanced-field|nonce)\.tsx$/.test(id)) return "framework";
  return undefined;
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [reactRouter()],
  resolve: {
    tsconfigPaths: true,
    alias: command === "build" ? productionReactRouter : [],
  },
  ssr: command === "build" ? { noExternal: ["react-router", "@react-router/node", "@react-router/express", "remix-toast"] } : {},
  build: isSsrBuild ? {} : { rollupOptions: { output: { manualChunks: firstLoadChunk } } },
  server: { port: Number(process.env.PORT ?? 5173) },
}));
