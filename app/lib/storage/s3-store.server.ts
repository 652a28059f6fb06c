import { randomUUID } from "node:crypto";
import { PassThrough, pipeline, type Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { outageOf } from "~/lib/outage.server";
import { deleteQuietly, isNotFound, isNotImplemented, objectPages, unfinishedUploads } from "./s3-listing.server";
import { sweepS3 } from "./s3-sweep.server";
import { checkInstanceId, checkKey, createInspector, type FileStore } from "./storage.server";
import { normalisePrefix } from "./storage-url.server";

/**
 * FileStore on an S3-compatible object store (AWS S3, MinIO, Cloudflare R2, s3rver in tests).
 *
 * Layout under the optional prefix: `tmp/<instance id>/<uuid>` while a file is being staged (each
 * instance clears its own folder at start: `clearTemporary`) and
 * `objects/<key>` once committed. The same two steps as on disk, so an object is complete or absent
 * under its final key: `stage` streams the upload through the byte counter and sniffer into a
 * temporary key with a multipart upload (bounded part size and queue, so memory stays flat whatever
 * the file's size), `commit` copies it to its key and deletes the temporary object. `sweep`
 * (s3-sweep.server.ts) removes stale temporary objects, stale unfinished multipart uploads, and
 * objects no row claims; the listings both walk are in s3-listing.server.ts.
 *
 * Credentials come from the SDK's default provider chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_SESSION_TOKEN, shared config files, instance roles); the region from the URL or AWS_REGION.
 */
export interface S3StoreOptions {
  bucket: string;
  /** Prepended to every key, e.g. "studio/" (normalised to end with "/"). */
  prefix?: string;
  /** For MinIO, R2 and other S3-compatible servers, e.g. http://127.0.0.1:9000. Omit for AWS S3. */
  endpoint?: string;
  /** Omit to let the SDK read AWS_REGION (or the shared config). */
  region?: string;
  /** Path-style URLs (endpoint/bucket/key) instead of bucket.endpoint/key: MinIO and s3rver need it. */
  forcePathStyle?: boolean;
  /** An existing client (shared by several stores, or configured by a test); the four options above are then ignored. */
  client?: S3Client;
  /** Names this process's folder of temporary objects; default: a random id per store. */
  instanceId?: string;
  /** Multipart part size in bytes (at least 5 MiB, S3's minimum). Default 8 MiB. */
  partSize?: number;
  /** Parts uploaded at once. Memory held by an upload is about (queueSize + 1) × partSize. Default 2. */
  queueSize?: number;
}

const MiB = 1024 * 1024;

/** How long connecting to the store may take, and how long a request's socket may stay silent. */
export const S3_CONNECT_TIMEOUT_MS = 10_000;
export const S3_IDLE_TIMEOUT_MS = 30_000;

export function createS3Client(options: Pick<S3StoreOptions, "endpoint" | "region" | "forcePathStyle">): S3Client {
  const config: S3ClientConfig = {
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle ?? false,
    // A store that accepts a request and then never answers must not hold an upload, a download or a
    // video job's result forever: a socket idle this long fails the attempt, and the SDK retries it
    // (found under faults: one PUT lost by the test server left a job in "finishing" indefinitely).
    requestHandler: { connectionTimeout: S3_CONNECT_TIMEOUT_MS, requestTimeout: S3_IDLE_TIMEOUT_MS },
  };
  // SDK versions since early 2025 add CRC32 checksums to every upload by default, which several
  // S3-compatible servers (older MinIO, some R2 paths, s3rver) reject or mishandle. Ask for checksums
  // only where an operation requires them, unless the standard AWS variables say otherwise.
  if (!process.env.AWS_REQUEST_CHECKSUM_CALCULATION) config.requestChecksumCalculation = "WHEN_REQUIRED";
  if (!process.env.AWS_RESPONSE_CHECKSUM_VALIDATION) config.responseChecksumValidation = "WHEN_REQUIRED";
  return new S3Client(config);
}

export function createS3Store(options: S3StoreOptions): FileStore {
  const bucket = options.bucket;
  const prefix = normalisePrefix(options.prefix);
  const client = options.client ?? createS3Client(options);
  const ownsClient = options.client === undefined;
  const instanceId = checkInstanceId(options.instanceId ?? randomUUID().slice(0, 8));
  const partSize = options.partSize ?? 8 * MiB;
  const queueSize = options.queueSize ?? 2;
  if (partSize < 5 * MiB) throw new Error("S3 multipart parts must be at least 5 MiB");
  if (!Number.isInteger(queueSize) || queueSize < 1) throw new Error("queueSize must be a positive whole number");

  const tmpPrefix = `${prefix}tmp/`;
  const ownTmpPrefix = `${tmpPrefix}${instanceId}/`;
  // Temporary keys this store is writing or about to copy: its own sweep never touches them. (A
  // multipart object's LastModified is when the upload began, so a long upload looks old the moment
  // it completes; only the few milliseconds until the copy are exposed to another instance's sweep.)
  const inFlight = new Set<string>();
  const objectsPrefix = `${prefix}objects/`;
  const objectKey = (key: string) => `${objectsPrefix}${checkKey(key)}`;
  // CopySource is "bucket/key", URL-encoded (our keys are plain ASCII, a prefix may not be).
  const copySource = (key: string) => `${bucket}/${key.split("/").map(encodeURIComponent).join("/")}`;

  const place = { client, bucket };

  /** Aborts every unfinished multipart upload under `listPrefix` (but ours in flight); returns how many. */
  async function abortUploads(listPrefix: string): Promise<number> {
    let aborted = 0;
    for await (const upload of unfinishedUploads(place, listPrefix)) {
      if (inFlight.has(upload.Key)) continue;
      await client.send(
        new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }),
      );
      aborted++;
    }
    return aborted;
  }

  return {
    async stage(source, stageOptions) {
      // The source may fail before the pipeline is attached; pipeline() then sees it already errored.
      source.on("error", () => {});
      const tempPath = `${ownTmpPrefix}${randomUUID()}`;
      inFlight.add(tempPath);
      const inspector = createInspector(stageOptions);
      // The first error of the stream (the size limit, the sniffer, or the client going away) is the
      // one we report, not whatever the upload says afterwards (e.g. a failed abort).
      let streamError: unknown = null;
      const body = pipeline(source, inspector.transform, (error) => {
        if (error) streamError ??= error;
      });
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: tempPath, Body: body },
        partSize,
        queueSize,
        // On failure the SDK aborts the multipart upload, so its parts do not linger.
        leavePartsOnError: false,
      });
      try {
        await upload.done();
        if (streamError) throw streamError;
      } catch (error) {
        // The store out of reach (refused, reset, timed out, a 5xx) is the 503 "unavailable", not a bad upload.
        const reported = streamError ?? outageOf(error, "storage") ?? error;
        // Stops reading the source (and so the client's request body) if the store failed first.
        body.destroy();
        // A single-part upload may have completed before the refusal surfaced; an aborted multipart
        // upload has no object. Deleting a missing key is not an error in S3.
        await deleteQuietly(place, tempPath);
        inFlight.delete(tempPath);
        throw reported;
      }
      return { tempPath, ...inspector.result() };
    },

    async commit(staged, key) {
      const target = objectKey(key);
      // A single CopyObject is limited to 5 GiB (larger objects need UploadPartCopy); our uploads are
      // capped far below (2 GiB), so one copy is enough. It is server-side: no bytes pass through us.
      // The copy is atomic for readers: the key shows the whole object or nothing.
      await client
        .send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: target,
            CopySource: copySource(staged.tempPath),
            MetadataDirective: "REPLACE",
            ContentType: staged.contentType,
          }),
        )
        .catch((error) => {
          throw outageOf(error, "storage") ?? error;
        });
      // If this fails the temporary object stays until the next sweep removes it.
      await deleteQuietly(place, staged.tempPath);
      inFlight.delete(staged.tempPath);
    },

    async discard(staged) {
      await deleteQuietly(place, staged.tempPath);
      inFlight.delete(staged.tempPath);
    },

    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw outageOf(error, "storage") ?? error;
      }
    },

    open(key, range) {
      const target = objectKey(key);
      const abort = new AbortController();
      const out = new PassThrough({ highWaterMark: 1 * MiB });
      // A reader that stops early (a seek, a closed tab) ends the request to the store too.
      out.on("close", () => {
        if (!out.readableEnded) abort.abort();
      });
      client
        .send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: target,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
          { abortSignal: abort.signal },
        )
        .then(
          (response) => {
            pipeline(response.Body as Readable, out, () => {});
          },
          (error) => {
            if (out.destroyed) return;
            // Like fs.createReadStream on a missing file, so callers can treat both stores alike.
            if (isNotFound(error))
              out.destroy(Object.assign(new Error(`No object s3://${bucket}/${target}`), { code: "ENOENT" }));
            else out.destroy(outageOf(error, "storage") ?? error);
          },
        );
      return out;
    },

    async probe(signal) {
      // The cheapest request that needs the bucket and the credentials (the same s3:ListBucket right a
      // listing needs), and that reads no object: a listing can fail on one damaged object's metadata
      // while the store serves every other file (seen with the S3-compatible test server after a cut write).
      await client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: signal });
    },

    async remove(key) {
      await deleteQuietly(place, objectKey(key));
    },

    sweep(known, sweepOptions) {
      return sweepS3({ ...place, tmpPrefix, objectsPrefix, inFlight }, known, sweepOptions);
    },

    async clearTemporary() {
      // Listing our folder is also the start's check that the bucket exists and the credentials work:
      // its errors go to the caller.
      let removed = 0;
      for await (const page of objectPages(place, ownTmpPrefix)) {
        for (const object of page) {
          if (inFlight.has(object.Key!)) continue;
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key! }));
          removed++;
        }
      }
      try {
        removed += await abortUploads(ownTmpPrefix);
      } catch (error) {
        // s3rver does not list multipart uploads; a policy without the listing leaves them to a lifecycle rule.
        if (!isNotImplemented(error))
          console.error(`[storage] could not list unfinished uploads in s3://${bucket}/${ownTmpPrefix}`, error);
      }
      return removed;
    },

    close() {
      if (ownsClient) client.destroy();
    },
  };
}
