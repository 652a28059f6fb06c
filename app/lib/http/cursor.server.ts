import { z } from "zod";
import { DomainError } from "../domain-error";

/**
 * Keyset paging's cursors (docs/decisions/0076-paging-by-cursor.md): the sort keys and the id of the
 * last row a page held, so the next page starts right after it ("the rows after this one, in the
 * list's order") instead of counting rows from the start as an offset does.
 *
 * A cursor is opaque to clients: base64url of `{"l": <list>, "k": [<keys>...]}`. It names its list,
 * so a cursor of the content list given to the library (or to another sort) is refused, not
 * misread. Anything that does not decode to the list's own keys is a 400 {detail}.
 */
export const CURSOR_MAX = 600;
export const BAD_CURSOR = "cursor is not valid: follow the Link of the previous page";

export type CursorKey = string | number;

export function encodeCursor(list: string, keys: CursorKey[]): string {
  return Buffer.from(JSON.stringify({ l: list, k: keys }), "utf8").toString("base64url");
}

const envelope = z.object({ l: z.string(), k: z.array(z.union([z.string(), z.number()])) });

/** The keys of a cursor of `list`, as `keys` shapes them; a cursor of another list or shape is a 400. */
export function decodeCursor<T>(list: string, cursor: string, keys: z.ZodType<T>): T {
  if (cursor.length === 0 || cursor.length > CURSOR_MAX || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new DomainError(400, BAD_CURSOR);
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new DomainError(400, BAD_CURSOR);
  }
  const parsed = envelope.safeParse(decoded);
  if (!parsed.success || parsed.data.l !== list) throw new DomainError(400, BAD_CURSOR);
  const result = keys.safeParse(parsed.data.k);
  if (!result.success) throw new DomainError(400, BAD_CURSOR);
  return result.data;
}

/** The `cursor` a request names, or undefined (blank is none). */
export function cursorParam(request: Request): string | undefined {
  const value = new URL(request.url).searchParams.get("cursor");
  return value ? value : undefined;
}
