// The production build's server module (`react-router build`) and what its entry
// (app/entry.server.tsx) exports for the front door: the settings parsed once by the app's one
// schema (app/lib/settings/env.server.ts), the life cycle, the security headers (and those every
// answer under /s/ adds), React Router's Node adapter, and the request id, metrics, log and traces
// (`observability`, app/lib/observe/). The server reads no setting itself: they reach it through the build.
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import type * as Entry from "../app/entry.server";

/** What the front door takes from the build's entry module. */
export type FrontDoorExports = Pick<
  typeof Entry,
  | "settings"
  | "startApp"
  | "stopApp"
  | "createRequestListener"
  | "createLoadContext"
  | "staticFileHeaders"
  | "sharedPathHeaders"
  | "strictTransportSecurity"
  | "observability"
>;
export type Settings = FrontDoorExports["settings"];

export interface LoadedBuild extends FrontDoorExports {
  build: ServerBuild;
  /** The build folder (BUILD_DIR): its client files are served from `client/` in it. */
  buildDir: string;
}

const REQUIRED: (keyof FrontDoorExports)[] = [
  "settings",
  "startApp",
  "stopApp",
  "createRequestListener",
  "createLoadContext",
  "staticFileHeaders",
  "sharedPathHeaders",
  "strictTransportSecurity",
  "observability",
];

/** Imports `<buildDir>/server/index.js`; refuses a build from before these exports. */
export async function loadBuild(buildDir: string): Promise<LoadedBuild> {
  const build = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as ServerBuild;
  const module = build.entry.module as unknown as Partial<FrontDoorExports>;
  if (REQUIRED.some((name) => !module[name])) {
    throw new Error(`${buildDir} is an older build without the server's exports: run \`npm run build\``);
  }
  const exports = module as FrontDoorExports;
  return { ...exports, build, buildDir };
}
