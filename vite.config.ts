import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import zlib from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { frontDoor } from "./server/build-plugin.ts";

const require = createRequire(import.meta.url);
const reactRouterDist = path.join(path.dirname(require.resolve("react-router/package.json")), "dist");

/**
 * react-router's package exports name only its development build (remix-run/react-router#12532,
 * #14102, both open): without this a production bundle carries the development build, dev warnings
 * and checks included, on the server and in the browser. A build points both entries at
 * dist/production, and bundles react-router, its Node adapter (with the request listener it uses) and remix-toast into the server build,
 * so one production copy serves every request (the front door, server/, takes the adapter's
 * `createRequestListener` from the build). `react-router dev` keeps the development build.
 * Remove this alias when those issues are closed. It points at a file React Router ships; nothing of
 * its code is changed (decision 0030).
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
  if (
    /vite\/preload-helper|app\/components\/(shell\/(toasts|theme-toggle|nonce)|ui\/(use-hydrated|enhanced-field))\.tsx$/.test(
      id,
    )
  )
    return "framework";
  return undefined;
}

/**
 * Brotli (quality 11) and gzip (level 9) copies beside every compressible client file of 1 KB or more,
 * written once by the build: the server's static files (sirv, server/client-files.ts) send the best one a
 * browser accepts, so static files are never compressed per request and get the smallest size there is.
 */
function precompress(): Plugin {
  const compressible = /\.(js|mjs|css|html|json|svg|ico|txt|webmanifest|wasm)$/i;
  const walk = (folder: string): string[] =>
    fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(folder, entry.name);
      return entry.isDirectory() ? walk(full) : entry.isFile() ? [full] : [];
    });
  return {
    name: "studio-precompress",
    apply: "build",
    closeBundle: {
      sequential: true,
      handler() {
        if (this.environment?.name !== "client") return;
        const outDir = this.environment.config.build.outDir;
        for (const file of walk(outDir)) {
          if (!compressible.test(file)) continue;
          const source = fs.readFileSync(file);
          if (source.length < 1024) continue;
          const brotli = zlib.brotliCompressSync(source, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          });
          const gzip = zlib.gzipSync(source, { level: 9 });
          if (brotli.length < source.length) fs.writeFileSync(`${file}.br`, brotli);
          if (gzip.length < source.length) fs.writeFileSync(`${file}.gz`, gzip);
        }
      },
    },
  };
}

/**
 * One id per build: what a kept page's ETag adds to what the page was built from
 * (app/lib/page-cache/kept-pages.server.ts), so a new build's pages never revalidate as an old one's.
 * Every instance serving one build shares it.
 */
const BUILD_ID = randomBytes(9).toString("base64url");

export default defineConfig(({ command, isSsrBuild }) => ({
  define: { __STUDIO_BUILD_ID__: JSON.stringify(BUILD_ID) },
  plugins: [reactRouter(), precompress(), frontDoor()],
  resolve: {
    tsconfigPaths: true,
    alias: command === "build" ? productionReactRouter : [],
  },
  ssr:
    command === "build"
      ? { noExternal: ["react-router", "@react-router/node", "@mjackson/node-fetch-server", "remix-toast"] }
      : {},
  build: isSsrBuild ? {} : { rollupOptions: { output: { manualChunks: firstLoadChunk } } },
  server: { port: Number(process.env.PORT ?? 5173) },
}));
