// @ts-check
// s3rver (an S3-compatible server from npm) in a process of its own, for the set-ups of the load,
// faults and cluster scripts: it keeps its work off the load generator's event loop, and its one known
// race cannot end the process that drives the test. Prints `listening <port>` once it serves.
// Usage: node tests/harness/s3rver-process.mjs <directory> <bucket> [port] (a port to start again on after a stop)
import { createRequire } from "node:module";

const [directory, bucket, portArgument] = process.argv.slice(2);
if (!directory || !bucket) {
  console.error("usage: node tests/harness/s3rver-process.mjs <directory> <bucket> [port]");
  process.exit(2);
}
// s3rver keeps objects as files and removes a key's folder when its last object goes; a PUT into
// that folder at the same moment fails with ENOENT on a stream nobody listens to, and that request
// never gets an answer. Folders are now kept (below); should the race come back, the server goes on.
process.on("uncaughtException", (/** @type {NodeJS.ErrnoException} */ error) => {
  if (error?.code === "ENOENT" && String(error.path ?? "").startsWith(directory)) {
    console.error(`[s3rver] tolerated a folder race: ${error.message}`);
    return;
  }
  console.error(error);
  process.exit(1);
});
const require = createRequire(import.meta.url);
// The race's cause, removed: deleting a key's last object no longer removes its folder (empty
// folders hold no key, so no listing shows them). Seen in CI: an AI video's result PUT into its
// instance's tmp/ folder while the previous temp object was deleted hung until the SDK's 30 s idle
// timeout, and the cluster test's job missed its 90 s.
// @ts-expect-error: s3rver ships no type declarations
const FilesystemStore = require("s3rver/lib/stores/filesystem");
/**
 * @this {{ getResourcePath(bucket: string, key: string, kind: string): string }}
 * @param {string} bucket
 * @param {string} key
 */
FilesystemStore.prototype.deleteObject = async function deleteObjectKeepingFolders(bucket, key) {
  const fs = require("node:fs/promises");
  await Promise.all(
    ["object", "object.md5", "metadata.json"].map((kind) =>
      fs.unlink(this.getResourcePath(bucket, key, kind)).catch((error) => {
        if (error.code !== "ENOENT") throw error;
      }),
    ),
  );
};
// @ts-expect-error: s3rver ships no type declarations
const S3rver = require("s3rver");
const server = new S3rver({
  address: "127.0.0.1",
  port: Number(portArgument ?? 0),
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs: [] }],
});
const { port } = await server.run();
console.log(`listening ${port}`);
const stop = () => {
  // close() may never resolve after a race: exit anyway.
  setTimeout(() => process.exit(0), 3_000).unref();
  server.close().then(
    () => process.exit(0),
    () => process.exit(0),
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
