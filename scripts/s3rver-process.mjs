// s3rver (an S3-compatible server from npm) in a process of its own, for the set-ups of the load,
// faults and cluster scripts: it keeps its work off the load generator's event loop, and its one known
// race cannot end the process that drives the test. Prints `listening <port>` once it serves.
// Usage: node scripts/s3rver-process.mjs <directory> <bucket>
import { createRequire } from "node:module";

const [directory, bucket] = process.argv.slice(2);
if (!directory || !bucket) {
  console.error("usage: node scripts/s3rver-process.mjs <directory> <bucket>");
  process.exit(2);
}
// s3rver keeps objects as files and removes a key's folder when its last object goes; a PUT into
// that folder at the same moment fails with ENOENT on a stream nobody listens to. That request fails
// (the SDK retries it); the server goes on.
process.on("uncaughtException", (error) => {
  if (error?.code === "ENOENT" && String(error.path ?? "").startsWith(directory)) {
    console.error(`[s3rver] tolerated a folder race: ${error.message}`);
    return;
  }
  console.error(error);
  process.exit(1);
});
const S3rver = createRequire(import.meta.url)("s3rver");
const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
const { port } = await server.run();
console.log(`listening ${port}`);
const stop = () => {
  // close() may never resolve after a race: exit anyway.
  setTimeout(() => process.exit(0), 3_000).unref();
  server.close().then(() => process.exit(0), () => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
