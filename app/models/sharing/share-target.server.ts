import type { ExpressionBuilder } from "kysely";
import type { Database } from "~/lib/db/db-schema";
import { db } from "~/lib/db/db.server";
import { getContent } from "~/models/content/content.server";
import { getMediaById, MEDIA_COLUMNS, toFile, type MediaFile } from "~/models/media/media.server";

/**
 * What a share link points at (docs/decisions/0069): a content piece, a library file (any kind) or a
 * project, always looked up under the link's owner, so a link can never reach another person's rows.
 */

export const SHARE_KINDS = ["content", "file", "project"] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

/** What the public page renders. */
export interface SharedTarget {
  share: { id: string; kind: ShareKind; user_id: string; target_id: string };
  title: string;
  content?: { title: string; body: string; updated_at: string };
  file?: MediaFile;
  project?: { title: string; description: string; media: { slot: string; file: MediaFile }[] };
}

const TARGET_TABLES = { content: "content_items", file: "media_files", project: "projects" } as const;

/**
 * A condition on a `shares` row: its target still exists and is its owner's. Used inside the statement
 * that counts a view, so a link whose target is gone never counts one.
 */
export function targetExists(eb: ExpressionBuilder<Database, "shares">) {
  return eb.or(
    SHARE_KINDS.map((kind) =>
      eb.and([
        eb("shares.kind", "=", kind),
        eb.exists(
          eb
            .selectFrom(TARGET_TABLES[kind])
            .select(`${TARGET_TABLES[kind]}.id`)
            .whereRef(`${TARGET_TABLES[kind]}.id`, "=", "shares.target_id")
            .whereRef(`${TARGET_TABLES[kind]}.user_id`, "=", "shares.user_id"),
        ),
      ]),
    ),
  );
}

/** The owner is not disabled (users.disabled_at): a disabled person's links stop, and `enable` brings them back. */
export function ownerActive(eb: ExpressionBuilder<Database, "shares">) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom("users")
        .select("users.id")
        .whereRef("users.id", "=", "shares.user_id")
        .where("users.disabled_at", "is not", null),
    ),
  );
}

/** The title a target goes by (a file's name), or undefined when the person has no such target. */
export async function targetTitle(userId: string, kind: ShareKind, targetId: string): Promise<string | undefined> {
  const titles = await targetTitles(userId, [{ kind, target_id: targetId }]);
  return titles.get(`${kind}:${targetId}`);
}

/** The titles of many targets at once, keyed "kind:id"; a missing key: that target is gone. */
export async function targetTitles(
  userId: string,
  targets: readonly { kind: ShareKind; target_id: string }[],
): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  const idsOf = (kind: ShareKind) => [...new Set(targets.filter((t) => t.kind === kind).map((t) => t.target_id))];
  const content = idsOf("content");
  const files = idsOf("file");
  const projects = idsOf("project");
  const [contentRows, fileRows, projectRows] = await Promise.all([
    content.length
      ? db
          .selectFrom("content_items")
          .select(["id", "title"])
          .where("user_id", "=", userId)
          .where("id", "in", content)
          .execute()
      : [],
    files.length
      ? db
          .selectFrom("media_files")
          .select(["id", "name as title"])
          .where("user_id", "=", userId)
          .where("id", "in", files)
          .execute()
      : [],
    projects.length
      ? db
          .selectFrom("projects")
          .select(["id", "title"])
          .where("user_id", "=", userId)
          .where("id", "in", projects)
          .execute()
      : [],
  ]);
  for (const row of contentRows) titles.set(`content:${row.id}`, row.title);
  for (const row of fileRows) titles.set(`file:${row.id}`, row.title);
  for (const row of projectRows) titles.set(`project:${row.id}`, row.title);
  return titles;
}

const PROJECT_FILE_SLOTS = [
  { slot: "image", column: "image_media_id" },
  { slot: "video", column: "video_media_id" },
  { slot: "voice", column: "voice_media_id" },
] as const;

/** A project's title, description and attached files (through its slots, the owner's files only). */
async function sharedProject(userId: string, projectId: string): Promise<SharedTarget["project"] | undefined> {
  const project = await db
    .selectFrom("projects")
    .select(["title", "description", "image_media_id", "video_media_id", "voice_media_id"])
    .where("user_id", "=", userId)
    .where("id", "=", projectId)
    .executeTakeFirst();
  if (!project) return undefined;
  const ids = PROJECT_FILE_SLOTS.map(({ column }) => project[column]).filter((id): id is string => id !== null);
  const rows = ids.length
    ? await db
        .selectFrom("media_files")
        .select(MEDIA_COLUMNS)
        .where("user_id", "=", userId)
        .where("id", "in", ids)
        .execute()
    : [];
  const byId = new Map(rows.map((row) => [row.id, toFile(row)]));
  const media = PROJECT_FILE_SLOTS.flatMap(({ slot, column }) => {
    const file = project[column] ? byId.get(project[column]) : undefined;
    return file ? [{ slot, file }] : [];
  });
  return { title: project.title, description: project.description, media };
}

/** The target as the public page shows it, or undefined when it is gone. */
export async function loadSharedTarget(share: SharedTarget["share"]): Promise<SharedTarget | undefined> {
  const { user_id: userId, target_id: targetId } = share;
  if (share.kind === "content") {
    const item = await getContent(userId, targetId);
    return item
      ? { share, title: item.title, content: { title: item.title, body: item.body, updated_at: item.updated_at } }
      : undefined;
  }
  if (share.kind === "file") {
    const file = await getMediaById(userId, targetId);
    return file ? { share, title: file.name, file } : undefined;
  }
  const project = await sharedProject(userId, targetId);
  return project ? { share, title: project.title, project } : undefined;
}
