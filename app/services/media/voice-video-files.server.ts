import { z } from "zod";
import { DomainError } from "~/lib/domain-error";
import { parseInput } from "~/lib/screens/validation.server";
import {
  deleteMedia,
  getMediaByName,
  listMedia,
  mediaNotFound,
  renameMedia,
  type MediaFile,
} from "~/models/media/media.server";
import { listMediaPage } from "~/models/media/media-list.server";
import { receiveMediaUpload } from "./media-upload.server";

/**
 * The two uploadable libraries (voice clips, videos) as the API serves them: one implementation for
 * the twin endpoints of docs/api.md#every-call (/api/voice/* and /api/videos/*), which differ only in the kind,
 * where a file is served and how the rename names arrive (query or JSON body).
 */
export type LibraryKind = "voice" | "video";

/** Where each library serves a file by its name (the upload's Location). */
export const LIBRARY_FILE_URL: Record<LibraryKind, (name: string) => string> = {
  voice: (name) => `/static/voices/${encodeURIComponent(name)}`,
  video: (name) => `/api/videos/${encodeURIComponent(name)}`,
};

const renameInput = z.object({
  old_name: z.string({ error: "old_name is required" }).min(1, "old_name is required"),
  new_name: z.string({ error: "new_name is required" }),
});

/** A file as the libraries list it and an upload answers it. */
export function libraryEntry(file: MediaFile) {
  return { filename: file.name, size: file.size, updated_at: file.updatedAt };
}

export function listLibrary(userId: string, kind: LibraryKind): Promise<MediaFile[]> {
  return listMedia(userId, kind);
}

/** A page of the library, newest first, and how many files it has (the API's lists page: app/lib/http/paging.server.ts). */
export function listLibraryPage(
  userId: string,
  kind: LibraryKind,
  page: { limit: number; offset: number },
): Promise<{ files: MediaFile[]; total: number }> {
  return listMediaPage(userId, kind, page);
}

/** The person's file by its name; 404 with the library's text when there is none. */
export async function libraryFile(userId: string, kind: LibraryKind, name: string): Promise<MediaFile> {
  const file = await getMediaByName(userId, kind, name);
  if (!file) throw new DomainError(404, mediaNotFound(kind));
  return file;
}

/** A multipart upload (field `file`) stored in the library: the entry and where it is served. */
export async function uploadToLibrary(userId: string, kind: LibraryKind, request: Request) {
  const { file } = await receiveMediaUpload(userId, kind, request);
  return { entry: libraryEntry(file), location: LIBRARY_FILE_URL[kind](file.name) };
}

/** the rename in docs/screens.md#validation-rules from {old_name, new_name} (422 when either is missing): {filename, old_name}. */
export async function renameInLibrary(userId: string, kind: LibraryKind, input: unknown) {
  const { old_name, new_name } = parseInput(renameInput, input);
  const file = await renameMedia(userId, kind, old_name, new_name);
  return { filename: file.name, old_name };
}

/** Deletes the person's file by name: {ok, filename}; 404 when there is none. */
export async function deleteFromLibrary(userId: string, kind: LibraryKind, name: string) {
  if (!(await deleteMedia(userId, kind, name))) throw new DomainError(404, mediaNotFound(kind));
  return { ok: true, filename: name };
}
