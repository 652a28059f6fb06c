import {
  DeleteObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  type S3Client,
} from "@aws-sdk/client-s3";

/**
 * What the S3 store (s3-store.server.ts) and its sweep (s3-sweep.server.ts) read of a bucket: its
 * objects, its unfinished multipart uploads and their parts, each listing followed page by page; and
 * the SDK's errors told apart.
 */
export interface S3Bucket {
  client: S3Client;
  bucket: string;
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

export function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string } | undefined)?.name;
  return statusOf(error) === 404 || name === "NotFound" || name === "NoSuchKey";
}

export function isNotImplemented(error: unknown): boolean {
  const name = (error as { name?: string } | undefined)?.name;
  return name === "NotImplemented" || statusOf(error) === 501;
}

export async function deleteQuietly({ client, bucket }: S3Bucket, key: string) {
  await client
    .send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))
    .catch((error) => console.error(`[storage] could not remove s3://${bucket}/${key}`, error));
}

/** Every object under `listPrefix`, a page (up to 1000) at a time. */
export async function* objectPages({ client, bucket }: S3Bucket, listPrefix: string) {
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: listPrefix, ContinuationToken: token }),
    );
    yield (page.Contents ?? []).filter((object) => object.Key !== undefined);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

/** An unfinished multipart upload: its key, its id and when it began. */
export interface UnfinishedUpload {
  Key: string;
  UploadId: string;
  Initiated?: Date;
}

/**
 * Every unfinished multipart upload under `listPrefix` (those without a key or an id are skipped),
 * the listing followed page by page; the next page is asked for once the caller has gone through
 * this one. A failed listing rejects the iteration.
 */
export async function* unfinishedUploads(
  { client, bucket }: S3Bucket,
  listPrefix: string,
): AsyncGenerator<UnfinishedUpload> {
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  do {
    const page = await client.send(
      new ListMultipartUploadsCommand({
        Bucket: bucket,
        Prefix: listPrefix,
        KeyMarker: keyMarker,
        UploadIdMarker: uploadIdMarker,
      }),
    );
    for (const upload of page.Uploads ?? []) {
      if (!upload.Key || !upload.UploadId) continue;
      yield { Key: upload.Key, UploadId: upload.UploadId, Initiated: upload.Initiated };
    }
    keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
    uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
  } while (keyMarker);
}

/** When the newest part of a multipart upload arrived (undefined: no parts, or the listing failed → its start decides). */
export async function newestPart(
  { client, bucket }: S3Bucket,
  key: string,
  uploadId: string,
): Promise<Date | undefined> {
  let newest: Date | undefined;
  let marker: string | undefined;
  try {
    do {
      const page = await client.send(
        new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }),
      );
      for (const part of page.Parts ?? []) {
        if (part.LastModified && (!newest || part.LastModified > newest)) newest = part.LastModified;
      }
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
  } catch (error) {
    if (!isNotFound(error)) console.error(`[storage] could not list the parts of s3://${bucket}/${key}`, error);
  }
  return newest ?? new Date(0);
}
