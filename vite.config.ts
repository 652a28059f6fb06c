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

export default defineConfig(({ command }) => ({
  plugins: [reactRouter()],
  resolve: {
    tsconfigPaths: true,
    alias: command === "build" ? productionReactRouter : [],
  },
  ssr: command === "build" ? { noExternal: ["react-router", "@react-router/node", "@react-router/express", "remix-toast"] } : {},
  server: { port: Number(process.env.PORT ?? 5173) },
}));
