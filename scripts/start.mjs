// `npm start`: builds the app when the build is missing or older than the sources
// (scripts/ensure-build.mjs), then runs the compiled front door (server/, decision 0054).
import { pathToFileURL } from "node:url";
import { ensureBuild, serverEntryPath } from "./ensure-build.mjs";

process.env.NODE_ENV ??= "production";
ensureBuild({ log: (message) => console.log(`[studio] ${message}`) });

// Every setting but BUILD_DIR (above: where the build is) is read by the app's one schema and reaches
// the server through the build (server/app-build.ts); a bad value stops the start with a clear message.
const { startServer, failedToStart } = await import(pathToFileURL(serverEntryPath()).href);
await startServer().catch(failedToStart);
