// The reproduction for React Router's report (docs/decisions/0081-document-path-speed.md): how often
// one document request matches its URL against the route table, and what that costs, with stock
// React Router through its public API only. It takes this app's route table from the production
// build (ids, paths, nesting; it prints how many) and gives every route an empty
// module, so nothing but React Router's own request handling runs: no loader, no middleware, no
// database. The root renders <Outlet/> and <Scripts/>, as every framework-mode root does.
// It then answers BENCH_REQUESTS (4,000) document requests for /dashboard and for /content/{id}
// through `createRequestHandler`, once for the CPU per document, once profiled in process
// (node:inspector) for the share spent in `matchRoutesImpl`, by the caller that asked for the match.
// Usage: `node bench/route-matching.mjs` (builds first if needed; BUILD_DIR selects the build;
// BENCH_REQUESTS the count; ROUTE_DISCOVERY=initial as below).
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRequestHandler, Outlet, Scripts, ServerRouter } from "react-router";
import { root, ensureBuild, serverBuildPath } from "../tests/harness/launch.mjs";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4_000);

ensureBuild((message) => console.log(`[route-matching] ${message}`));
// The build's modules read their settings when imported: a throwaway data folder and secret.
process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "route-matching-"));
process.env.SESSION_SECRET ??= "route-matching-secret-that-is-long-enough-0123456789";
const real = await import(pathToFileURL(serverBuildPath()).href);

function Root() {
  return createElement("html", null, createElement("body", null, createElement(Outlet), createElement(Scripts)));
}
const Empty = () => null;
const routes = Object.fromEntries(
  Object.entries(real.routes).map(([id, route]) => [
    id,
    { ...route, module: { default: id === "root" ? Root : Empty } },
  ]),
);
const entry = {
  module: {
    default: (request, status, headers, context) => {
      headers.set("Content-Type", "text/html");
      const html = renderToString(createElement(ServerRouter, { context, url: request.url }));
      return new Response(`<!DOCTYPE html>${html}`, { status, headers });
    },
  },
};
// ROUTE_DISCOVERY=initial: React Router's other route discovery (the whole manifest as a file, no
// partial manifest per document), to show which of the matches it removes.
const routeDiscovery = process.env.ROUTE_DISCOVERY === "initial" ? { mode: "initial" } : real.routeDiscovery;
const build = { ...real, routes, entry, routeDiscovery };
const handle = createRequestHandler(build, "production");
const apiRoutes = Object.values(routes).filter((route) => route.path?.startsWith("api")).length;

async function documents(pathname) {
  for (let n = 0; n < REQUESTS; n++) {
    const response = await handle(new Request(`http://localhost${pathname}?v=${n}`));
    if (response.status !== 200) throw new Error(`${pathname}: ${response.status}`);
    await response.text();
  }
}

/** The route work React Router repeats per document: matching (by caller) and ServerRouter's route tree. */
const REBUILT = "createServerRoutes";

/** Self time by sample, then: the total, matchRoutesImpl's time by the function that called it, and REBUILT's. */
function summarise(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  let busy = 0;
  let matching = 0;
  let rebuilding = 0;
  const byCaller = new Map();
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    if (byId.get(id).callFrame.functionName === "(idle)") return;
    busy += micros;
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      if (byId.get(at).callFrame.functionName !== REBUILT) continue;
      rebuilding += micros;
      break;
    }
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      if (byId.get(at).callFrame.functionName !== "matchRoutesImpl") continue;
      matching += micros;
      let caller = parentOf.get(at);
      // getPartialManifest calls it from an arrow function inside a forEach.
      while (caller !== undefined && /^(|forEach)$/.test(byId.get(caller).callFrame.functionName))
        caller = parentOf.get(caller);
      const name = caller === undefined ? "?" : byId.get(caller).callFrame.functionName;
      byCaller.set(name, (byCaller.get(name) ?? 0) + micros);
      break;
    }
  });
  return { busy, matching, rebuilding, byCaller };
}

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
console.log(
  `React Router ${JSON.parse(fs.readFileSync(path.join(root, "node_modules/react-router/package.json"), "utf8")).version}, ` +
    `Node ${process.versions.node}, route discovery ${routeDiscovery.mode}; ${Object.keys(routes).length} routes (${apiRoutes} under /api), empty modules; ` +
    `${REQUESTS} documents each`,
);
for (const pathname of ["/dashboard", "/content/0a1b2c3d"]) {
  await documents(pathname); // warm up
  const started = process.cpuUsage();
  await documents(pathname);
  const used = process.cpuUsage(started);
  await session.post("Profiler.start");
  await documents(pathname);
  const { profile } = await session.post("Profiler.stop");
  const { busy, matching, rebuilding, byCaller } = summarise(profile);
  const perDocument = (used.user + used.system) / 1000 / REQUESTS;
  const callers = [...byCaller]
    .sort((a, b) => b[1] - a[1])
    .map(([name, micros]) => `${name} ${((micros / busy) * 100).toFixed(1)}%`)
    .join(", ");
  console.log(
    `${pathname}: ${perDocument.toFixed(3)} ms CPU per document; matchRoutesImpl ${((matching / busy) * 100).toFixed(1)}% ` +
      `of it (${((perDocument * matching) / busy).toFixed(3)} ms), by caller: ${callers}; ` +
      `ServerRouter's ${REBUILT} ${((rebuilding / busy) * 100).toFixed(1)}%`,
  );
}
session.disconnect();
