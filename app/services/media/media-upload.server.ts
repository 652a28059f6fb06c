import { DomainError } from "~/lib/domain-error";
import { recordUpload, type UploadOutcome } from "~/lib/observe/metrics.server";
import { receiveMultipartUpload } from "~/lib/storage/upload.server";
import { commitStagedMedia, commitStagedOfKind, requireKindOf } from "~/models/media/media-commit.server";
import { inspectKeepingHead, MEDIA_RULES } from "~/models/media/media-rules.server";
import { quotaRefusal, uploadLimit } from "~/models/media/storage-quota.server";
import { refuseTakenName, type MediaFile } from "~/models/media/media.server";
import { type MediaKind } from "~/common/media/media-names";
import { StorageHold } from "~/models/media/storage-quota.server";
import { SAVABLE_KINDS } from "~/common/media/library-rules";
import { nameFromUpload } from "~/common/media/media-names";

/**
 * Uploads read from a request (multipart field `file`), for the API and the screens alike: the body
 * streams into the file store's staging area (app/lib/storage/upload.server.ts) under the limits and content
 * rules of the media model, which then commits the staged file as the person's. Refusals are
 * DomainErrors (400, 408, 409, 413, 415, 422) with the text the API answers; nothing is kept then.
 * The bytes hold their room in the person's quota while they stream (a StorageHold, grown per MiB),
 * so uploads racing for the last room cannot all pass: the one that finds none is a 413 at once.
 */

/** How an upload that failed is counted in the metrics (studio_uploads_total). */
function uploadOutcomeOf(error: unknown): UploadOutcome {
  if (!(error instanceof DomainError) || error.status >= 500) return "unavailable";
  return error.status === 413 ? "too_large" : error.status === 408 ? "too_slow" : "refused";
}

/** Runs an upload and counts it by kind and outcome (the kind is "unknown" when it failed before one was named). */
async function counted<T>(kind: string, receive: () => Promise<T>, fileOf: (result: T) => MediaFile): Promise<T> {
  try {
    const result = await receive();
    const file = fileOf(result);
    recordUpload(file.kind, "stored", file.size);
    return result;
  } catch (error) {
    recordUpload(kind, uploadOutcomeOf(error), 0);
    throw error;
  }
}

/** The request's Content-Length, when it says one: the file within it is no larger. */
function declaredLength(request: Request): number | null {
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : null;
}

/**
 * An upload of one kind: streamed under the kind's size limit (and the quota: by Content-Length
 * before a byte is kept, else during the stream), refused by content (415), named after the uploaded
 * file's name with the kind's extension. A name the user already has is a 409 (the rule for
 * uploads), found as soon as the part's file name arrives so a large file is not received for
 * nothing, and again by the unique index at insert for two uploads racing for one name.
 */
export function receiveMediaUpload(
  userId: string,
  kind: MediaKind,
  request: Request,
  options: { whenTaken?: "number" | "refuse" } = {},
) {
  return counted(
    kind,
    () => receiveOfKind(userId, kind, request, options),
    (received) => received.file,
  );
}

async function receiveOfKind(
  userId: string,
  kind: MediaKind,
  request: Request,
  options: { whenTaken?: "number" | "refuse" },
) {
  const whenTaken = options.whenTaken ?? "refuse";
  const limit = await uploadLimit(userId, [kind]);
  const inspection = inspectKeepingHead(kind);
  const hold = new StorageHold(userId, declaredLength(request));
  let upload;
  try {
    upload = await receiveMultipartUpload(request, {
      maxBytes: limit.maxBytes,
      inspect: inspection.inspect,
      reserve: hold.cover,
      unsupportedMessage: MEDIA_RULES[kind].unsupportedMessage,
      checkFilename: async (filename) => {
        if (whenTaken === "refuse") await refuseTakenName(userId, kind, filename);
      },
    });
  } catch (error) {
    await hold.release();
    throw quotaRefusal(limit, error);
  }
  const file = await commitStagedMedia(
    userId,
    kind,
    upload.staged,
    nameFromUpload(upload.filename, kind),
    whenTaken,
    inspection.described(),
    hold,
  );
  return { file, fields: upload.fields };
}

/**
 * An upload whose kind arrives in the form (field `kind`, or `?kind=` on the URL): the parts may come
 * in any order, so the bytes are staged under the kinds' largest limit (and the quota), then held to
 * the named kind's content and size once the form is read (commitStagedOfKind: 422 unknown kind, 415
 * wrong content, 413 too large or past the quota; nothing kept).
 */
export function receiveUploadOfKind(userId: string, request: Request, kinds: readonly MediaKind[]): Promise<MediaFile> {
  const fromQuery = new URL(request.url).searchParams.get("kind");
  const named = fromQuery !== null && (kinds as readonly string[]).includes(fromQuery) ? fromQuery : "unknown";
  return counted(
    named,
    () => receiveNamedKind(userId, request, kinds, fromQuery),
    (file) => file,
  );
}

async function receiveNamedKind(
  userId: string,
  request: Request,
  kinds: readonly MediaKind[],
  fromQuery: string | null,
): Promise<MediaFile> {
  if (fromQuery !== null) requireKindOf(kinds, fromQuery);
  const limit = await uploadLimit(userId, kinds);
  const hold = new StorageHold(userId, declaredLength(request));
  let head: Uint8Array | null = null;
  let upload;
  try {
    upload = await receiveMultipartUpload(request, {
      maxBytes: limit.maxBytes,
      reserve: hold.cover,
      // Judged once the kind is known, so the refusal can name what that kind must be.
      inspect: (bytes) => {
        head = bytes;
        return "application/octet-stream";
      },
      unsupportedMessage: "The file is not of an accepted type",
    });
  } catch (error) {
    await hold.release();
    throw quotaRefusal(limit, error);
  }
  return commitStagedOfKind(
    userId,
    kinds,
    { staged: upload.staged, filename: upload.filename, kind: upload.fields.kind ?? fromQuery ?? "", head },
    hold,
  );
}

/** "Save to library": a photo (PNG), camera clip (WebM) or voice memo (M4A) from a multipart upload. */
export function saveUploadToLibrary(userId: string, request: Request): Promise<MediaFile> {
  return receiveUploadOfKind(userId, request, SAVABLE_KINDS);
}
