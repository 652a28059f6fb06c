import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";

/**
 * An S3-compatible server for tests: s3rver (from npm) on a free loopback port, storing into a
 * temporary folder, with one bucket. `env` is what a server needs to use it (STORAGE_URL and s3rver's
 * fixed credentials); `keys(prefix)` lists the bucket.
 */
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}

export async function startS3rver(bucket = "studio-media", prefix = "") {
  const S3rver = createRequire(import.meta.url)("s3rver") as new (options: Record<string, unknown>) => S3rverInstance;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "studio-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
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
    bucket,
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
    async stop() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
