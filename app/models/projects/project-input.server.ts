import { z } from "zod";
import { formatNumber } from "~/common/i18n/formats";
import { interpolate, msg, type Translator } from "~/common/i18n/translate";
import { withoutNul } from "~/lib/db/portable-sql.server";
import { MUSIC_DEMOS } from "~/common/media/music-demos";
import { displayText } from "~/common/media/media-names";
import { PROJECT_DESCRIPTION_MAX, PROJECT_SLOTS, PROJECT_TITLE_MAX } from "~/common/project-rules";

/**
 * What a project may be given, as both doors take it (the forms of docs/screens.md#project-editor and
 * docs/api.md#entities-and-payloads): the zod schemas of a create, an update and one slot's change.
 * Whether a named file is the person's own is app/models/projects/project.server.ts's to check.
 */

export const MUSIC_TRACK_IDS: readonly string[] = MUSIC_DEMOS.map((track) => track.id);
const MUSIC_FILE_NAMES = MUSIC_TRACK_IDS.map((id) => `${id}.mp3`);

/** The refusals a screen shows (the API's detail is the same English, its values filled in). */
export const TITLE_REQUIRED = msg("Title required");
export const TITLE_NOT_TEXT = msg("Title must be text");
export const TITLE_TOO_LONG = msg("Title must be at most {{max}} characters");
export const DESCRIPTION_NOT_TEXT = msg("Description must be text");
export const DESCRIPTION_TOO_LONG = msg("Description must be at most {{max}} characters");

/** The limits as the English details write them (the API's contract). */
const TITLE_TOO_LONG_TEXT = interpolate(TITLE_TOO_LONG, { max: PROJECT_TITLE_MAX });
const DESCRIPTION_TOO_LONG_TEXT = interpolate(DESCRIPTION_TOO_LONG, {
  max: PROJECT_DESCRIPTION_MAX.toLocaleString("en-US"),
});

/**
 * A project refusal's English detail (a schema's or the model's) in the screen's language: the two
 * limits with their number in the language's digits, any other text looked up as it is.
 */
export function projectScreenText({ t, language }: Translator, detail: string): string {
  if (detail === TITLE_TOO_LONG_TEXT) return t(TITLE_TOO_LONG, { max: formatNumber(language, PROJECT_TITLE_MAX) });
  if (detail === DESCRIPTION_TOO_LONG_TEXT)
    return t(DESCRIPTION_TOO_LONG, { max: formatNumber(language, PROJECT_DESCRIPTION_MAX) });
  return t(detail);
}

const titleSchema = z
  .string({
    error: (issue) => (issue.input === undefined || issue.input === null ? TITLE_REQUIRED : TITLE_NOT_TEXT),
  })
  // Control and bidirectional-override characters would disguise the title in every list.
  .overwrite(displayText)
  .trim()
  .min(1, TITLE_REQUIRED)
  .max(PROJECT_TITLE_MAX, TITLE_TOO_LONG_TEXT);

/** Line breaks stored as \n (plain forms post \r\n); null means empty. */
const descriptionSchema = z
  .string({ error: DESCRIPTION_NOT_TEXT })
  // U+0000 dropped (PostgreSQL refuses it in text; both engines store the same description).
  .transform((text) => withoutNul(text).replace(/\r\n?/g, "\n"))
  .pipe(z.string().max(PROJECT_DESCRIPTION_MAX, DESCRIPTION_TOO_LONG_TEXT))
  .nullable()
  .transform((text) => text ?? "");

/**
 * A file to attach: its name (as the libraries list it, e.g. "take.mp3") or its id (as the generators
 * answer it); null or "" detaches. Names always carry an extension and ids never do, so the two cannot
 * be confused.
 */
const fileRefSchema = (field: string) =>
  z
    .string({ error: `${field} must be a file name, a file id or null` })
    .trim()
    .max(300, `${field} must be a file name, a file id or null`)
    .nullable()
    .transform((value) => (value ? value : null));

/** A bundled track: "demo2.mp3" (as answered) or "demo2"; normalised to the track id. */
const musicFileSchema = z
  .string({ error: `music_file must be one of: ${MUSIC_FILE_NAMES.join(", ")}, or null` })
  .trim()
  .nullable()
  .transform((value) => (value ? value.replace(/\.mp3$/i, "") : null))
  .refine(
    (value) => value === null || MUSIC_TRACK_IDS.includes(value),
    `music_file must be one of: ${MUSIC_FILE_NAMES.join(", ")}, or null`,
  );

/** The attachment fields are the same four the API answers with (docs/api.md#entities-and-payloads), so a read project can be written back. */
const attachmentFields = {
  voice_file: fileRefSchema("voice_file").optional(),
  music_file: musicFileSchema.optional(),
  video_file: fileRefSchema("video_file").optional(),
  image_file: fileRefSchema("image_file").optional(),
};

/** Create: title required, description optional; attachments optional. */
export const projectCreateSchema = z.object({
  title: titleSchema,
  description: descriptionSchema.optional(),
  ...attachmentFields,
});
/** Update (PUT): title required as on create; a left-out description or attachment keeps its value. */
export const projectUpdateSchema = projectCreateSchema;
/** One slot changed on its own (the editor's Attach and Detach buttons). */
export const projectAttachSchema = z.object({
  slot: z.enum(PROJECT_SLOTS, { error: `slot must be one of: ${PROJECT_SLOTS.join(", ")}` }),
  value: z
    .string({ error: "value must be text" })
    .trim()
    .max(100, "Unknown file")
    .transform((value) => (value ? value : null)),
});

export type ProjectInput = z.infer<typeof projectCreateSchema>;
export type Attachments = Pick<ProjectInput, "voice_file" | "music_file" | "video_file" | "image_file">;
