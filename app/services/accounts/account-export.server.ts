import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { Database } from "~/lib/db/db-schema";
import { batchedReads } from "~/lib/db/batched-reads";
import { openBulkReader } from "~/lib/db/db.server";
import { JsonLists } from "~/lib/db/json-lists";
import { outageOf } from "~/lib/outage.server";
import { fileStore } from "~/lib/storage/storage.server";
import { createZipStream } from "~/lib/zip/zip-stream.server";
import { safeFileName, ZipNames } from "~/lib/zip/zip-names.server";
import type { ZipStream } from "~/lib/zip/zip-types.server";
import {
  contentForExport,
  listMediaForExport,
  mediaForExportByIds,
  messageCountsForExport,
  messagesForExportOf,
  versionCountsForExport,
  versionsForExportOf,
  type ExportMediaRow,
} from "~/models/accounts/export-reads.server";
import { listConversationsForExport } from "~/models/assistant/assistant-conversation.server";
import { getProject, listProjects, projectNotFound, type Project } from "~/models/projects/project.server";

/**
 * Exports: a project, or everything a person has, as a zip written while it is sent
 * (app/lib/zip/zip-stream.server.ts): files are read from the store (disk or S3) one at a time as the zip
 * reaches them, content bodies and versions in batches of one query each (docs/decisions/0078), so
 * memory stays flat however large the library.
 *
 * Layout of a project export:  project.json, voice/<name>, video/<name>, image/<name>
 * Layout of an account export: manifest.json, content/<title>.md, projects/<title>.json,
 *                              assistant/<title>.json (a conversation and its messages),
 *                              history/<title>.json (a text piece's versions), library/<kind>/<name>
 * Names inside the zip are made safe and unique per folder (ZipNames); the JSON gives each entry's
 * path. The JSON entries are written last, when every file has been read, so they can also list the
 * files whose bytes were missing (`missing`: empty entries in the zip).
 */
export const EXPORT_FORMAT_VERSION = 1;

export interface ZipExport {
  /** The download's file name. */
  filename: string;
  zip: ZipStream;
}

/** Deflate what is text or raw audio; store already-compressed media (MP3, MP4, WebM, PNG...) as is. */
export function worthCompressing(contentType: string): boolean {
  return /^(text\/|application\/json|audio\/(wav|wave|x-wav|vnd\.wave))/i.test(contentType);
}

/**
 * A zip's status is sent before its files are read: with files to read, the store is asked first, so
 * a store out of reach is the 503 "unavailable" rather than a download cut after its 200 (decision 0049).
 */
async function requireStore(fileCount: number): Promise<void> {
  if (fileCount === 0) return;
  await fileStore.probe?.().catch((error: unknown) => Promise.reject(outageOf(error, "storage") ?? error));
}

/** A stored file, read when the zip reaches it into the zip's own reused buffer (no new buffer per read). */
function addStoredFile(zip: ZipStream, path: string, file: ExportMediaRow) {
  zip.addLazy(path, { compress: worthCompressing(file.contentType), mtime: new Date(file.updatedAt) }, (buffer) =>
    fileStore.readInto(file.id, buffer),
  );
}

/** A JSON entry computed when the zip reaches it (after the files before it were read). */
function addJsonLast(zip: ZipStream, path: string, value: () => unknown) {
  zip.addLazyBuffer(path, { compress: true }, () => `${JSON.stringify(value(), null, 2)}\n`);
}

/** A file as the JSON lists it: the fields GET /api/library answers (provenance null when unknown) and its path in the zip. */
function mediaEntry(file: ExportMediaRow, path: string) {
  return {
    id: file.id,
    kind: file.kind,
    name: file.name,
    content_type: file.contentType,
    size: file.size,
    created_at: file.createdAt,
    updated_at: file.updatedAt,
    width: file.width,
    height: file.height,
    duration_ms: file.durationMs,
    provenance: file.provenance,
    path,
  };
}

function projectFields(project: Project) {
  const { id, title, description, voice_file, music_file, video_file, image_file, created_at, updated_at } = project;
  return { id, title, description, voice_file, music_file, video_file, image_file, created_at, updated_at };
}

/** The bundled track a project names: listed, not included (it is the app's, at its URL). */
function musicOf(project: Project) {
  const track = project.media.music;
  return track ? { id: track.id, title: track.name, url: track.url } : null;
}

const FILE_SLOTS = ["voice", "video", "image"] as const;

/** GET /api/project/{id}/export: the project's fields and its attached files; another person's project is a 404. */
export async function exportProject(userId: string, projectId: string): Promise<ZipExport> {
  const project = await getProject(userId, projectId);
  if (!project) throw projectNotFound();
  const attached = FILE_SLOTS.flatMap((slot) => (project.media[slot] ? [{ slot, id: project.media[slot]!.id }] : []));
  const files = new Map(
    (
      await mediaForExportByIds(
        userId,
        attached.map((a) => a.id),
      )
    ).map((file) => [file.id, file]),
  );
  await requireStore(files.size);

  const zip = createZipStream();
  const names = new ZipNames();
  names.take("", "project.json");
  const media: Array<ReturnType<typeof mediaEntry> & { slot: string }> = [];
  for (const { slot, id } of attached) {
    const file = files.get(id);
    if (!file) continue; // detached meanwhile
    const path = names.take(slot, file.name);
    addStoredFile(zip, path, file);
    media.push({ slot, ...mediaEntry(file, path) });
  }
  const exportedAt = new Date().toISOString();
  addJsonLast(zip, "project.json", () => ({
    format: "creative-ai-studio/project",
    version: EXPORT_FORMAT_VERSION,
    exported_at: exportedAt,
    project: projectFields(project),
    media,
    music: musicOf(project),
    missing: zip.missing(),
  }));
  zip.end();
  return { filename: `${safeFileName(project.title, "project")}.zip`, zip };
}

/**
 * Rows per batch of bodies or versions: few queries for a large library, and at most about
 * 200 × BODY_MAX characters in memory at once (docs/decisions/0078).
 */
const READ_BATCH = 200;

/** A piece as Markdown, in parts: the zip encodes them one after the other (no joined copy of the body). */
function markdownOf(title: string, body: string): string[] {
  return body ? ["# ", title, "\n\n", body, "\n"] : ["# ", title, "\n"];
}

/**
 * GET /api/account/export: every piece of content (Markdown), every project (JSON, naming its files
 * by their path in the zip), every assistant conversation (JSON), every piece's version history (JSON)
 * and every file the person owns, with manifest.json listing all of it.
 */
export async function exportAccount(user: { id: string; email: string }): Promise<ZipExport> {
  // The pieces, versions and messages are read through a connection of the export's own (SQLite: a
  // small page cache, docs/decisions/0078), closed when the zip is done or abandoned.
  const reader = openBulkReader();
  let zip: ZipStream;
  try {
    zip = await writeAccount(user, reader.db);
  } catch (error) {
    await reader.close();
    throw error;
  }
  zip.output.once("close", () => void reader.close());
  const day = new Date().toISOString().slice(0, 10);
  return { filename: `creative-ai-studio-export-${day}.zip`, zip };
}

async function writeAccount(user: { id: string; email: string }, reader: Kysely<Database>): Promise<ZipStream> {
  const [projects, library, conversations, versionCounts, messageCounts] = await Promise.all([
    listProjects(user.id),
    listMediaForExport(user.id),
    listConversationsForExport(user.id),
    versionCountsForExport(user.id, reader),
    messageCountsForExport(user.id, reader),
  ]);
  await requireStore(library.length);
  const zip = createZipStream();
  const names = new ZipNames();
  names.take("", "manifest.json");
  // The manifest's lists of pieces and histories are kept as their JSON text while the zip goes.
  const manifest = new JsonLists<"content" | "history">();

  // The pieces, with their bodies, are read a keyset batch at a time as the zip reaches them; each
  // entry, and its name, is made then (names are unique within a folder, so taking them in the zip's
  // order gives the same names). Only the pieces with versions are remembered, for the histories.
  const versioned: Array<{ id: string; title: string; updated_at: string }> = [];
  zip.addEach(
    (async function* () {
      for await (const batch of contentForExport(user.id, READ_BATCH, reader)) {
        for (const { id, title, pinned, created_at, updated_at, body } of batch) {
          const path = names.take("content", `${title}.md`, "untitled.md");
          manifest.push("content", { id, title, pinned, created_at, updated_at, path });
          if (versionCounts.has(id)) versioned.push({ id, title, updated_at });
          yield { path, options: { mtime: new Date(updated_at) }, make: () => markdownOf(title, body) };
        }
      }
    })(),
  );

  // Each conversation's messages are read when the zip reaches it, in batches like the bodies.
  const messagesOf = batchedReads(
    conversations.map((conversation) => conversation.id),
    (ids) => messagesForExportOf(user.id, ids, reader),
    { size: READ_BATCH, weight: (id) => messageCounts.get(id) ?? 1 },
  );
  const conversationEntries = conversations.map((conversation) => {
    const path = names.take("assistant", `${conversation.title}.json`, "conversation.json");
    zip.addLazyBuffer(path, { mtime: new Date(conversation.updated_at) }, async () => {
      const whole = { ...conversation, messages: (await messagesOf(conversation.id)) ?? [] };
      return `${JSON.stringify(whole, null, 2)}\n`;
    });
    return { ...conversation, path };
  });

  // A piece's versions (with their bodies) are read when the zip reaches its history file, in
  // batches of about READ_BATCH versions (the pieces' entries are all written by then).
  zip.addEach(
    (function* () {
      const versionsOf = batchedReads(
        versioned.map((item) => item.id),
        (ids) => versionsForExportOf(user.id, ids, reader),
        { size: READ_BATCH, weight: (id) => versionCounts.get(id) ?? 1 },
      );
      for (const item of versioned) {
        const path = names.take("history", `${item.title}.json`, "history.json");
        manifest.push("history", { content_id: item.id, title: item.title, path });
        const make = async () => {
          const document = { content_id: item.id, title: item.title, versions: (await versionsOf(item.id)) ?? [] };
          return `${JSON.stringify(document, null, 2)}\n`;
        };
        yield { path, options: { mtime: new Date(item.updated_at) }, make };
      }
    })(),
  );

  const libraryEntries = library.map((file) => {
    const path = names.take(`library/${safeFileName(file.kind, "files")}`, file.name);
    addStoredFile(zip, path, file);
    return mediaEntry(file, path);
  });
  const libraryPath = new Map(libraryEntries.map((entry) => [entry.id, entry.path]));

  const projectEntries = projects.map((project) => {
    const path = names.take("projects", `${project.title}.json`, "project.json");
    const media = FILE_SLOTS.flatMap((slot) => {
      const file = project.media[slot];
      return file
        ? [{ slot, id: file.id, name: file.name, kind: file.kind, path: libraryPath.get(file.id) ?? null }]
        : [];
    });
    const document = { ...projectFields(project), media, music: musicOf(project) };
    zip.addBuffer(path, `${JSON.stringify(document, null, 2)}\n`, { mtime: new Date(project.updated_at) });
    return { id: project.id, title: project.title, path };
  });

  const exportedAt = new Date().toISOString();
  // Streamed from the lists' bytes (the manifest of 100,000 pieces is tens of MiB of JSON).
  zip.addLazy("manifest.json", { compress: true }, () =>
    Readable.from(
      manifest.render(
        {
          format: "creative-ai-studio/account",
          version: EXPORT_FORMAT_VERSION,
          exported_at: exportedAt,
          account: { id: user.id, email: user.email },
          content: [],
          projects: projectEntries,
          assistant_conversations: conversationEntries,
          history: [],
          library: libraryEntries,
          missing: zip.missing(),
        },
        ["content", "history"],
      ),
    ),
  );
  zip.end();
  return zip;
}
