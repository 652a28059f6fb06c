import { z } from "zod";
import { withoutNul } from "~/lib/db/portable-sql.server";
import { displayText } from "~/common/media/media-names";
import { formatNumber } from "~/common/i18n/formats";
import { interpolate, msg, type Translator } from "~/common/i18n/translate";

/** What a text content item may hold, and the input the forms and the API send to make or change one. */
export const TITLE_MAX = 200;
export const BODY_MAX = 100_000;
/** The dashboard shows this many items per page; the API list has no default limit (docs/screens.md: a bare list). */
export const CONTENT_PAGE_SIZE = 100;
export const LIST_LIMIT_MAX = 1000;

/** The title's and the body's refusals: the API's detail in English, a form's field error in the screen's language (sayContentFieldErrors). */
export const TITLE_REQUIRED = msg("Title is required");
export const TITLE_NOT_TEXT = msg("Title must be text");
export const TITLE_TOO_LONG = msg("Title must be at most {{max}} characters");
export const BODY_NOT_TEXT = msg("Body must be text");
export const BODY_TOO_LONG = msg("Body must be at most {{max}} characters");
const titleTooLong = interpolate(TITLE_TOO_LONG, { max: formatNumber("en", TITLE_MAX) });
const bodyTooLong = interpolate(BODY_TOO_LONG, { max: formatNumber("en", BODY_MAX) });

const titleSchema = z
  .string({
    error: (issue) => (issue.input === undefined || issue.input === null ? TITLE_REQUIRED : TITLE_NOT_TEXT),
  })
  // Control and bidirectional-override characters would disguise the title in every list.
  .overwrite(displayText)
  .trim()
  .min(1, TITLE_REQUIRED)
  .max(TITLE_MAX, titleTooLong);

/** Optional; null means empty. Line breaks are stored as \n (plain forms post \r\n). */
const bodySchema = z
  .string({ error: BODY_NOT_TEXT })
  // U+0000 dropped (PostgreSQL refuses it in text; both engines store the same body).
  .transform((body) => withoutNul(body).replace(/\r\n?/g, "\n"))
  .pipe(z.string().max(BODY_MAX, bodyTooLong))
  .nullish()
  .transform((body) => (body === null ? "" : body));

/** A version of the item; any ISO-8601 timestamp, normalised to ours. */
const timestampSchema = (name: string) =>
  z
    .string({ error: `${name} must be an ISO-8601 timestamp` })
    .max(64, `${name} must be an ISO-8601 timestamp`)
    .refine((value) => !Number.isNaN(Date.parse(value)), `${name} must be an ISO-8601 timestamp`)
    .transform((value) => new Date(value).toISOString());

export const contentInputSchema = z.object({ title: titleSchema, body: bodySchema });
/**
 * PUT and autosave: a missing body leaves the stored body as it is. Optional: updated_at, the version
 * the editor last saw (older than the stored one: 409), and editing_since, the version the editor began
 * with (its history keeps that state, docs/decisions/0072).
 */
export const contentUpdateSchema = contentInputSchema.extend({
  updated_at: timestampSchema("updated_at").optional(),
  editing_since: timestampSchema("editing_since").optional(),
});
export const pinSchema = z.object({
  pinned: z.boolean({
    error: (issue) => (issue.input === undefined ? "pinned is required" : "pinned must be true or false"),
  }),
});
export const listQuerySchema = z.object({
  limit: z.coerce
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(LIST_LIMIT_MAX, `limit must be at most ${LIST_LIMIT_MAX}`)
    .optional(),
  offset: z.coerce
    .number({ error: "offset must be a whole number" })
    .int("offset must be a whole number")
    .min(0, "offset must be at least 0")
    .optional(),
});

export type ContentInput = z.infer<typeof contentInputSchema>;
/** One refusal of the title or the body (its English text) in the screen's language, the limit in its digits. */
export function sayContentFieldError({ t, language }: Translator, english: string): string {
  if (english === titleTooLong) return t(TITLE_TOO_LONG, { max: formatNumber(language, TITLE_MAX) });
  if (english === bodyTooLong) return t(BODY_TOO_LONG, { max: formatNumber(language, BODY_MAX) });
  return t(english);
}

/** A form's field errors (fieldErrors' English texts) in the screen's language. */
export function sayContentFieldErrors<F extends string>(
  say: Translator,
  errors: Partial<Record<F, string>>,
): Partial<Record<F, string>> {
  const said: Partial<Record<F, string>> = {};
  for (const field of Object.keys(errors) as F[]) {
    const english = errors[field];
    if (english) said[field] = sayContentFieldError(say, english);
  }
  return said;
}

/** A new title, and a new body unless it is left out. */
export interface ContentUpdate {
  title: string;
  body?: string;
}

/** The UTF-8 bytes an item's text counts toward the storage quota (migration 0012's triggers count the same). */
export const textBytesOf = (title: string, body: string) =>
  Buffer.byteLength(title, "utf8") + Buffer.byteLength(body, "utf8");
