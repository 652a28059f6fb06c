import { AbortMultipartUploadCommand } from "@aws-sdk/client-s3";
import {
  deleteQuietly,
  isNotImplemented,
  newestPart,
  objectPages,
  unfinishedUploads,
  type S3Bucket,
} from "./s3-listing.server";
import { KEY_PATTERN, SWEEP_GRACE_MS, type FileStore, type SweepResult } from "./storage.server";

/** Where the S3 store keeps what it sweeps, and the temporary keys it is writing (never swept). */
export interface S3SweepPlace extends S3Bucket {
  /** Every instance's temporary objects: `<prefix>tmp/`. */
  tmpPrefix: string;
  /** Committed files: `<prefix>objects/<key>`. */
  objectsPrefix: string;
  inFlight: ReadonlySet<string>;
}

const KNOWN_BATCH = 500;

/**
 * The S3 store's `sweep`: removes stale temporary objects, stale unfinished multipart uploads, and
 * objects no row claims, each older than `graceMs`.
 */
export async function sweepS3(
  place: S3SweepPlace,
  known: Parameters<FileStore["sweep"]>[0],
  { graceMs = SWEEP_GRACE_MS, now = Date.now() }: Parameters<FileStore["sweep"]>[1] = {},
): Promise<SweepResult> {
  const { client, bucket, tmpPrefix, objectsPrefix, inFlight } = place;
  const result: SweepResult = { removedFiles: 0, removedTemporary: 0 };
  const isStale = (modified: Date | undefined) => modified !== undefined && now - modified.getTime() > graceMs;

  for await (const page of objectPages(place, tmpPrefix)) {
    for (const object of page) {
      if (inFlight.has(object.Key!) || !isStale(object.LastModified)) continue;
      await deleteQuietly(place, object.Key!);
      result.removedTemporary++;
    }
  }

  // Multipart uploads cut off by a crash keep their parts (billed, invisible to listings) until
  // aborted. A bucket lifecycle rule (AbortIncompleteMultipartUpload) does the same; this covers
  // buckets without one. Servers that do not implement the listing (s3rver) are skipped.
  try {
    for await (const upload of unfinishedUploads(place, tmpPrefix)) {
      if (inFlight.has(upload.Key) || !isStale(upload.Initiated)) continue;
      // An upload began long ago may still be going (a 2 GiB video over a slow line): its newest
      // part says whether it is alive (a live one sends a part every few seconds).
      if (!isStale(await newestPart(place, upload.Key, upload.UploadId))) continue;
      await client
        .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }))
        .then(() => result.removedTemporary++)
        .catch((error) => console.error(`[storage] could not abort the upload of s3://${bucket}/${upload.Key}`, error));
    }
  } catch (error) {
    // Not a reason to leave orphaned objects in place: log it and go on with the objects.
    if (!isNotImplemented(error))
      console.error(`[storage] could not list unfinished uploads in s3://${bucket}/${tmpPrefix}`, error);
  }

  for await (const page of objectPages(place, objectsPrefix)) {
    const entries = page.map((object) => ({ key: object.Key!.slice(objectsPrefix.length), object }));
    // Ask in batches: a portable IN list stays well below every database's parameter limit.
    for (let i = 0; i < entries.length; i += KNOWN_BATCH) {
      const batch = entries.slice(i, i + KNOWN_BATCH);
      const claimed = await known(batch.map((entry) => entry.key).filter((key) => KEY_PATTERN.test(key)));
      for (const { key, object } of batch) {
        if (claimed.has(key) || !isStale(object.LastModified)) continue;
        await deleteQuietly(place, object.Key!);
        result.removedFiles++;
      }
    }
  }
  return result;
}
