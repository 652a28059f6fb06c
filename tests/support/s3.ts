import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";

/**
 * An S3-compatible server for tests, the one every test that needs one starts: s3rver (from npm, in
 * this process) on a free loopback port, storing into a temporary folder, with one bucket. `env` is
 * what a server needs to use it (STORAGE_URL and s3rver's fixed credentials); `client` talks to it
 * directly; `keys(prefix)` lists the bucket. `pause()` stops it (an outage) and `resume()` brings it
 * back on the same port and folder; `stop()` ends it and removes the folder.
 */
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  httpServer: { closeAllConnections(): void };
}

export type S3TestServer = Awaited<ReturnType<typeof startS3rver>>;

export async function startS3rver(bucket = "studio-media", prefix = "") {
  const S3rver = createRequire(import.meta.url)("s3rver") as new (options: Record<string, unknown>) => S3rverInstance;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "studio-s3rver-"));
  let server: S3rverInstance | null = null;
  let port = 0;
  const run = async () => {
    const started = new S3rver({
      address: "127.0.0.1",
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    port = (await started.run()).port;
    server = started;
  };
  const close = async () => {
    const running = server;
    server = null;
    await running?.close();
  };
  await run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  const storageUrl = (name = bucket) =>
    `s3://${name}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&force_path_style=true${prefix ? `&prefix=${prefix}` : ""}`;
  return {
    endpoint,
    port,
    bucket,
    directory,
    client,
    storageUrl,
    env: {
      STORAGE_URL: storageUrl(),
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      AWS_REGION: "us-east-1",
    },
    async keys(under = ""): Promise<string[]> {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: under }));
      return (page.Contents ?? []).map((object) => object.Key!).sort();
    },
    /** The store goes away (its objects stay in the folder); requests to it fail until `resume()`. */
    pause: close,
    /** The store comes back on the same port and folder, with everything it held. */
    resume: run,
    /** Cuts every open connection at once (a store failing in the middle of a transfer). */
    cutConnections() {
      server?.httpServer.closeAllConnections();
    },
    async stop() {
      client.destroy();
      await close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
