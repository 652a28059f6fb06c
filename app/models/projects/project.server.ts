import { db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/domain-error";
import { msg } from "~/common/i18n/translate";
import { monotonicIso, newId } from "~/lib/db/ids.server";
import { MUSIC_DEMOS } from "~/common/media/music-demos";
import { mediaUrl } from "~/models/media/ai-media.server";
import { listMedia, type MediaFile } from "~/models/media/media.server";
import { MUSIC_TRACK_IDS, type Attachments, type ProjectInput } from "./project-input.server";
import { type MediaKind } from "~/common/media/media-names";
import { lookupName } from "~/common/media/media-names";
import { musicTrack, type AttachedMedia, type ProjectSlot } from "~/common/project-rules";

/**
 * Projects (docs/screens.md#projects and #project-editor and docs/api.md#entities-and-payloads). Every function takes the signed-in
 * user's id and every query is scoped by it: another user's project is indistinguishable from one
 * that does not exist. A project holds at most one file per slot: a voice (a voice clip or generated
 * speech), a video (an upload or an AI video), an image (a drawing-pad result or a generated image)
 * and one of the bundled music tracks. The file slots reference media_files with ON DELETE SET NULL,
 * so deleting a library file detaches it from every project in the same statement. What a project
 * may be given (the forms' and the API's input) is app/models/projects/project-input.server.ts's.
 */

export const PROJECT_NOT_FOUND = msg("Project not found");
/** The refusal of a project the person does not have (or that is another user's). */
export const projectNotFound = () => new DomainError(404, PROJECT_NOT_FOUND);

/** Which stored kinds each file slot accepts. */
export const SLOT_KINDS: Record<Exclude<ProjectSlot, "music">, readonly MediaKind[]> = {
  voice: ["voice", "speech", "memo"],
  video: ["video", "aivideo", "clip"],
  image: ["image", "sketch", "photo"],
};
/** A refused attachment, per slot: the API's detail, and a screen's text (`t(detail)`). */
const NO_SUCH: Record<ProjectSlot, string> = {
  voice: msg("No such voice in your library"),
  music: msg("No such music track"),
  video: msg("No such video in your library"),
  image: msg("No such image in your library"),
};

export interface Project {
  id: string;
  title: string;
  description: string;
  /** docs/api.md#entities-and-payloads: the four media fields signal presence: the attached file's name, or null. */
  voice_file: string | null;
  music_file: string | null;
  video_file: string | null;
  image_file: string | null;
  media: Record<ProjectSlot, AttachedMedia | null>;
  created_at: string;
  updated_at: string;
}

/** The code of a refused attachment: input that names a file (or track) the person does not have. */
export const PROJECT_MEDIA_REFUSED = "project_media_refused";

function attachmentRefused(detail: string): DomainError {
  return new DomainError(422, detail, { code: PROJECT_MEDIA_REFUSED });
}

const SLOT_COLUMNS = { voice: "voice_media_id", video: "video_media_id", image: "image_media_id" } as const;
const SLOT_FIELDS = { voice: "voice_file", video: "video_file", image: "image_file" } as const;

/** The project rows with their attached files' names and kinds (joined on the owner too, by construction). */
function projectQuery(userId: string) {
  return db
    .selectFrom("projects")
    .leftJoin("media_files as voice", (join) =>
      join.onRef("voice.id", "=", "projects.voice_media_id").onRef("voice.user_id", "=", "projects.user_id"),
    )
    .leftJoin("media_files as video", (join) =>
      join.onRef("video.id", "=", "projects.video_media_id").onRef("video.user_id", "=", "projects.user_id"),
    )
    .leftJoin("media_files as image", (join) =>
      join.onRef("image.id", "=", "projects.image_media_id").onRef("image.user_id", "=", "projects.user_id"),
    )
    .select([
      "projects.id",
      "projects.title",
      "projects.description",
      "projects.music_track",
      "projects.created_at",
      "projects.updated_at",
      "voice.id as voice_id",
      "voice.name as voice_name",
      "voice.kind as voice_kind",
      "video.id as video_id",
      "video.name as video_name",
      "video.kind as video_kind",
      "image.id as image_id",
      "image.name as image_name",
      "image.kind as image_kind",
    ])
    .where("projects.user_id", "=", userId);
}

type ProjectRow = Awaited<ReturnType<ReturnType<typeof projectQuery>["executeTakeFirstOrThrow"]>>;

function attached(id: string | null, name: string | null, kind: string | null): AttachedMedia | null {
  return id && name && kind ? { id, name, kind, url: mediaUrl(id) } : null;
}

function toProject(row: ProjectRow): Project {
  const media = {
    voice: attached(row.voice_id, row.voice_name, row.voice_kind),
    music: musicTrack(row.music_track),
    video: attached(row.video_id, row.video_name, row.video_kind),
    image: attached(row.image_id, row.image_name, row.image_kind),
  };
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    voice_file: media.voice?.name ?? null,
    music_file: media.music ? `${media.music.id}.mp3` : null,
    video_file: media.video?.name ?? null,
    image_file: media.image?.name ?? null,
    media,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The person's projects, most recently updated first; `limit`: only that many (the assistant's context). */
export async function listProjects(userId: string, options: { limit?: number } = {}): Promise<Project[]> {
  let query = projectQuery(userId).orderBy("projects.updated_at", "desc").orderBy("projects.id", "desc");
  if (options.limit !== undefined) query = query.limit(options.limit);
  const rows = await query.execute();
  return rows.map(toProject);
}

export async function getProject(userId: string, id: string): Promise<Project | undefined> {
  const row = await projectQuery(userId).where("projects.id", "=", id).executeTakeFirst();
  return row ? toProject(row) : undefined;
}

/** A page of the person's projects in listProjects' order, and how many they have (GET /api/project). */
export async function listProjectPage(
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ projects: Project[]; total: number }> {
  const [rows, counted] = await Promise.all([
    projectQuery(userId)
      .orderBy("projects.updated_at", "desc")
      .orderBy("projects.id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom("projects")
      .select((eb) => eb.fn.countAll<number | string>().as("total"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { projects: rows.map(toProject), total: Number(counted.total) };
}

/** The person's file of a kind the slot takes, by id or by name; undefined when there is none. */
async function findSlotFile(
  userId: string,
  slot: keyof typeof SLOT_COLUMNS,
  reference: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("media_files")
    .select("id")
    .where("user_id", "=", userId)
    .where("kind", "in", [...SLOT_KINDS[slot]])
    .where((eb) => eb.or([eb("id", "=", reference), eb("name", "=", lookupName(reference))]))
    .executeTakeFirst();
  return row?.id;
}

/** Checks that every named file is the person's own and of a kind its slot takes; the columns to set. */
async function attachmentColumns(userId: string, input: Attachments) {
  const columns: Partial<
    Record<"voice_media_id" | "video_media_id" | "image_media_id" | "music_track", string | null>
  > = {};
  for (const slot of ["voice", "video", "image"] as const) {
    const reference = input[SLOT_FIELDS[slot]];
    if (reference === undefined) continue;
    let id: string | null = null;
    if (reference !== null) {
      id = (await findSlotFile(userId, slot, reference)) ?? null;
      if (!id) throw attachmentRefused(NO_SUCH[slot]);
    }
    columns[SLOT_COLUMNS[slot]] = id;
  }
  if (input.music_file !== undefined) columns.music_track = input.music_file;
  return columns;
}

export async function createProject(userId: string, input: ProjectInput): Promise<Project> {
  const now = monotonicIso();
  const id = newId();
  await db
    .insertInto("projects")
    .values({
      id,
      user_id: userId,
      title: input.title,
      description: input.description ?? "",
      voice_media_id: null,
      video_media_id: null,
      image_media_id: null,
      music_track: null,
      ...(await attachmentColumns(userId, input)),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return (await getProject(userId, id))!;
}

/** Saves the given fields (a left-out description or attachment keeps its value); undefined when not found. */
export async function updateProject(
  userId: string,
  id: string,
  input: Partial<ProjectInput>,
): Promise<Project | undefined> {
  const changes = {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(await attachmentColumns(userId, input)),
  };
  const result = await db
    .updateTable("projects")
    .set({ ...changes, updated_at: monotonicIso() })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return getProject(userId, id);
}

/** Attaches `value` (a file id or name, or a track id for music) to one slot, or detaches it when null. */
export async function setProjectSlot(userId: string, id: string, slot: ProjectSlot, value: string | null) {
  if (slot === "music") {
    if (value !== null && !MUSIC_TRACK_IDS.includes(value)) throw attachmentRefused(NO_SUCH.music);
    return updateProject(userId, id, { music_file: value });
  }
  return updateProject(userId, id, { [SLOT_FIELDS[slot]]: value });
}

export async function deleteProject(userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom("projects").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export interface MediaChoice {
  id: string;
  name: string;
  kind: string;
}

/** What the editor offers to attach in each slot: the person's own files of the kinds it takes, and the tracks. */
export async function projectMediaChoices(userId: string): Promise<Record<ProjectSlot, MediaChoice[]>> {
  const choices = async (kinds: readonly MediaKind[]) => {
    const lists = await Promise.all(kinds.map((kind) => listMedia(userId, kind)));
    return lists.flat().map((file: MediaFile) => ({ id: file.id, name: file.name, kind: file.kind }));
  };
  const [voice, video, image] = await Promise.all([
    choices(SLOT_KINDS.voice),
    choices(SLOT_KINDS.video),
    choices(SLOT_KINDS.image),
  ]);
  return {
    voice,
    music: MUSIC_DEMOS.map((track) => ({ id: track.id, name: track.title, kind: "music" })),
    video,
    image,
  };
}
