import { getLibraryFile, libraryJson, listLibrary, storageUsage } from "~/models/media/library-files.server";
import { screenCursorKey } from "~/models/media/library-keyset.server";
import { listProjects, setProjectSlot, type Project } from "~/models/projects/project.server";
import { AUDIO_KINDS, LIBRARY_PAGE_SIZE, VIDEO_KINDS, type LibraryFilters } from "~/common/media/library-rules";
import type { LibraryFileJson } from "~/common/media/library-rules";
import type { MediaKind } from "~/common/media/media-names";

/**
 * The library screen's work across models (decision 0022): one view of the person's files with their
 * storage and projects, and attaching a file to a project in the slot its kind fills.
 */

/**
 * A view of the library: one page of files as the filters say, the storage used, the projects a file
 * can be attached to, and the file a Delete without JavaScript asks about (`confirmId`, ?delete={id};
 * null when it is not the person's).
 */
export async function libraryView(
  userId: string,
  filters: LibraryFilters,
  confirmId: string | null,
  cursor: string | null = null,
) {
  const [result, usage, projects] = await Promise.all([
    listLibrary(userId, {
      after: filters.page > 1 ? screenCursorKey(filters.sort, cursor) : undefined,
      kind: filters.kind || null,
      q: filters.q,
      sort: filters.sort,
      page: filters.page,
      perPage: LIBRARY_PAGE_SIZE,
    }),
    storageUsage(userId),
    listProjects(userId),
  ]);
  const confirming = confirmId ? await getLibraryFile(userId, confirmId).catch(() => null) : null;
  return {
    files: result.files.map((file) => withTitle(libraryJson(file))),
    total: result.total,
    pages: Math.max(1, Math.ceil(result.total / LIBRARY_PAGE_SIZE)),
    next: result.next,
    usage: { usedBytes: usage.usedBytes, quotaBytes: usage.quotaBytes, textBytes: usage.textBytes },
    projects: projects.map((project) => ({ id: project.id, title: project.title })),
    confirming: confirming ? { id: confirming.id, name: confirming.name } : null,
  };
}

type SlotOfKind = "voice" | "video" | "image";
const slotOf = (kind: MediaKind): SlotOfKind =>
  AUDIO_KINDS.includes(kind) ? "voice" : VIDEO_KINDS.includes(kind) ? "video" : "image";

/**
 * Attaches the person's file to their project, in the slot its kind fills (a voice, a video or an
 * image): the project, or undefined when no project is named or it is not theirs. 404 when the file
 * is not theirs; the project model's refusals as they are.
 */
export async function attachToProject(userId: string, fileId: string, projectId: string): Promise<Project | undefined> {
  const file = await getLibraryFile(userId, fileId);
  return projectId ? setProjectSlot(userId, projectId, slotOf(file.kind), file.id) : undefined;
}

/** The names the AI tools give what they make ("speech-hello-20260115-120405.wav", "ai-video-…"). */
const MACHINE_NAME = /^(speech|image|ai-video|sketch)-.*\d{8}-\d{6}/;

/** A library card's file: its title is what the person knows it by (docs/screens.md, "Library: upload bar, filters, cards"). */
export type LibraryCardFile = LibraryFileJson & { title: string };

/**
 * The title a card shows: the prompt (or the text spoken) for a generated file still under the name
 * its tool gave it; otherwise the file's name, as the person uploaded or renamed it.
 */
export function withTitle(file: LibraryFileJson): LibraryCardFile {
  const prompt = file.provenance?.prompt?.trim();
  return { ...file, title: prompt && MACHINE_NAME.test(file.name) ? prompt : file.name };
}
