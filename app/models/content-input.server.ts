import { z } from "zod";
import { withoutNul } from "~/lib/db-dialect.server";
import { displayText } from "~/shared/media-names";

/** What a text content item may hold, and the input the forms and the API send to make or change one. */
export const TITLE_MAX = 200;
export const BODY_MAX = 100_000;
/** The dashboard shows this many items per page; the API list has no default limit (docs/screens.md: a bare list). */
export const CONTENT_PAGE_SIZE = 100;
export const LIST_LIMIT_MAX = 1000;

const titleSchema = z
  .string({
    error: (issue) => (issue.input === undefined || issue.input === null ? "Title is required" : "Title must be text"),
  })
  // Control and bidirectional-override characters would disguise the title in every list.
  .overwrite(displayText)
  .trim()
  .min(1, "Title is required")
  .max(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`);

/** Optional; null means empty. Line breaks are stored as \n (plain forms post \r\n). */
const bodySchema = z
  .string({ error: "Body must be text" })
  // U+0000 dropped (PostgreSQL refuses it in text; both engines store the same body).
  .transform((body) => withoutNul(body).replace(/\r\n?/g, "\n"))
  .pipe(z.string().max(BODY_MAX, `Body must be at most ${BODY_MAX.toLocaleString("en-US")} characters`))
  .nullish()
  .transform((body) => (body === null ? "" : body));

/** The version of the item the editor last saw; any ISO-8601 timestamp, normalised to ours. */
const updatedAtSchema = z
  .string({ error: "updated_at must be an ISO-8601 timestamp" })
  .max(64, "updated_at must be an ISO-8601 timestamp")
  .refine((value) => !Number.isNaN(Date.parse(value)), "updated_at must be an ISO-8601 timestamp")
  .transform((value) => new Date(value).toISOString());

export const contentInputSchema = z.object({ title: titleSchema, body: bodySchema });
/** PUT and autosave: a missing body leaves the stored body as it is; updated_at is optional. */
export const contentUpdateSchema = contentInputSchema.extend({ updated_at: updatedAtSchema.optional() });
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
/** A new title, and a new body unless it is left out. */
export interface ContentUpdate {
  title: string;
  body?: string;
}
