import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import zlib from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

const require = createRequire(import.meta.url);
const reactRouterDist = path.join(path.dirname(require.resolve("react-router/package.json")), "dist");

/**
 * react-router's package exports name only its development build (remix-run/react-router#12532,
 * #14102): without this a production bundle carries the development build, dev warnings and checks
 * included, on the server and in the browser. A build points both entries at dist/production, and
 * bundles react-router, its Node adapter and remix-toast into the server build, so one production
 * copy serves every request (scripts/server.mjs takes `createRequestHandler` from the build).
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

/**
 * Brotli (quality 11) and gzip (level 9) copies beside every compressible client file of 1 KB or more,
 * written once by the build: the front door (scripts/static-files.mjs) sends the best one a browser
 * accepts, so static files are never compressed per request and get the smallest size there is.
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
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length },
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
 * One exact edit of React Router's production module in the server build (decision 0025). `find`
 * must occur in the module that holds `marker` (a global pattern: `count` times); if a React Router
 * release words it otherwise, the build warns and leaves the code as it is (tests/api/route-matching
 * .test.ts then fails).
 */
function reactRouterServerEdit(
  name: string,
  marker: string,
  find: RegExp | string,
  replacement: string | ((match: string, ...groups: string[]) => string),
  whenMissing: string,
  count = 1,
): Plugin {
  return {
    name,
    apply: "build",
    transform(code, id) {
      if (this.environment?.name !== "ssr" || !id.includes("/react-router/dist/production/") || !code.includes(marker)) return null;
      const found = typeof find === "string" ? (code.includes(find) ? 1 : 0) : (code.match(find.global ? find : new RegExp(find.source, `${find.flags}g`)) ?? []).length;
      if (found !== count) {
        this.warn(`${whenMissing} (found ${found} of ${count})`);
        return null;
      }
      const replace = typeof replacement === "string" ? () => replacement : replacement;
      return { code: code.replace(find, replace as (match: string, ...groups: string[]) => string), map: null };
    },
  };
}

/**
 * React Router writes the route manifest into every document pretty-printed (two-space indents and a
 * line per key), with every route's false flags, empty stylesheet lists, and the entry's imports again
 * in each route: 2 KB of the dashboard's HTML (issue 13: the page's HTML at most 40 KB). The server
 * build writes it compact and without them: the browser reads each flag by truthiness (absent is
 * false), a route's `css` and `imports` as optional, and has loaded the entry's imports before any
 * route's (it preloads a route's imports only for later navigations).
 */
function compactRouteManifest(): Plugin {
  return reactRouterServerEdit(
    "studio-compact-route-manifest",
    "__reactRouterManifest = ",
    /JSON\.stringify\(\s*getPartialManifest\(manifest, router\),\s*null,\s*2\s*\)/,
    `JSON.stringify(getPartialManifest(manifest, router), function studioCompactManifest(key, value) {
        if (value === false || (key === "css" && Array.isArray(value) && value.length === 0)) return undefined;
        if (key !== "imports" || this === manifest.entry || !Array.isArray(value)) return value;
        const own = value.filter((href) => !manifest.entry.imports.includes(href));
        return own.length > 0 ? own : undefined;
      })`,
    "React Router's inline route manifest is no longer written as expected: it is left pretty-printed",
  );
}

/**
 * The browser's copy of the server's settings (`window.__reactRouterContext`) lists every future flag
 * and mode, most of them false, in every document. The browser reads each by truthiness (absent is
 * false), so the server build leaves the false ones out (150 bytes of every page, issue 13).
 */
function compactServerHandoff(): Plugin {
  return reactRouterServerEdit(
    "studio-compact-server-handoff",
    "function createServerHandoffString(serverHandoff)",
    "return escapeHtml(JSON.stringify(serverHandoff));",
    "return escapeHtml(JSON.stringify(serverHandoff, function studioCompactHandoff(key, value) { return value === false ? undefined : value; }));",
    "React Router's server handoff is no longer written as expected: its false flags are kept",
  );
}

/**
 * React Router puts the document's CSP nonce on every <link> it writes: ten module preloads, the
 * stylesheet and the icon on the dashboard, 400 bytes of its HTML (issue 13). Our policy's
 * `script-src 'self' 'nonce-…'` (app/lib/security.server.ts, no 'strict-dynamic') allows any script
 * of our own origin, and `style-src 'self'` our stylesheets, so only inline scripts need the nonce:
 * the server build leaves it off links. Inline <script> and <style> elements keep it.
 */
function noNonceOnLinks(): Plugin[] {
  return [
    reactRouterServerEdit(
      "studio-no-nonce-on-module-preloads",
      "function Scripts(scriptProps)",
      /(rel: "modulepreload",\s*href: [\w.]+,\s*crossOrigin: scriptProps\.crossOrigin,\s*integrity: sri\[[\w.]+\],\s*)nonce: scriptProps\.nonce,\s*/g,
      (_match, before) => before,
      "React Router's module preloads are no longer written as expected: they keep the nonce",
      3,
    ),
    reactRouterServerEdit(
      "studio-no-nonce-on-route-links",
      "function Links({ nonce, crossOrigin })",
      /(\{\s*key,\s*)nonce,(\s*\.\.\.link,\s*crossOrigin: link\.crossOrigin \?\? crossOrigin\s*\})/g,
      (_match, before, after) => `${before}${after}`,
      "React Router's route links are no longer written as expected: they keep the nonce",
      2, // a route's links, and the page prefetches they may ask for
    ),
  ];
}

/**
 * React Router matches every request's path against each route in rank order, building match objects
 * and joining paths for the root of every route it tries (issue 13's profile: 10-14% of an API
 * request's CPU, twice per request). The answer depends only on the path and the route table, so the
 * server build remembers it per path (the last 2,000 paths) and hands out a copy: fresh match objects
 * and params, as the original makes. Only the server's matching, against its precomputed branches, is
 * remembered.
 */
function rememberRouteMatches(): Plugin {
  const header = "function matchRoutesImpl(routes, locationArg, basename, allowPartial, precomputedBranches) {";
  const remembered = `const studioMatchesByBranches = new WeakMap();
function matchRoutesImpl(routes, locationArg, basename, allowPartial, precomputedBranches) {
  if (!precomputedBranches) return matchRoutesImplEachTime(routes, locationArg, basename, allowPartial, precomputedBranches);
  let byPath = studioMatchesByBranches.get(precomputedBranches);
  if (!byPath) studioMatchesByBranches.set(precomputedBranches, (byPath = new Map()));
  const key = (typeof locationArg === "string" ? locationArg : locationArg.pathname) + "\\n" + basename + "\\n" + allowPartial;
  let matches = byPath.get(key);
  if (matches === undefined) {
    matches = matchRoutesImplEachTime(routes, locationArg, basename, allowPartial, precomputedBranches);
    if (byPath.size >= 2000) byPath.clear();
    byPath.set(key, matches);
  }
  if (matches === null) return null;
  // One params object is shared by every match of a branch, as matchRouteBranch makes it.
  const params = { ...matches[matches.length - 1].params };
  return matches.map((match) => ({ ...match, params }));
}
function matchRoutesImplEachTime(routes, locationArg, basename, allowPartial, precomputedBranches) {`;
  return reactRouterServerEdit(
    "studio-remember-route-matches",
    "function matchRouteBranch(",
    header,
    remembered,
    "React Router's matchRoutesImpl is no longer written as expected: route matches are not remembered",
  );
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [reactRouter(), precompress(), compactRouteManifest(), compactServerHandoff(), ...noNonceOnLinks(), rememberRouteMatches()],
  resolve: {
    tsconfigPaths: true,
    alias: command === "build" ? productionReactRouter : [],
  },
  ssr: command === "build" ? { noExternal: ["react-router", "@react-router/node", "remix-toast"] } : {},
  build: isSsrBuild ? {} : { rollupOptions: { output: { manualChunks: firstLoadChunk } } },
  server: { port: Number(process.env.PORT ?? 5173) },
}));
